// The round-trip floor's messages, from what bench/record-hook.mjs recorded of an audit. Pure: tested in
// test/bench-targets.test.ts.

/**
 * The `id` a JSON-RPC message waits for an answer under: its own, null for one we cannot read, none for a notification.
 */
function answerId(text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (Array.isArray(message)) return null;
  // A notification, or our answer to a request of the server's: nothing comes back for it.
  if (typeof message !== 'object' || message === null || !('id' in message) || !('method' in message)) return undefined;
  return message.id;
}

function methodOf(text) {
  try {
    return JSON.parse(text)?.method;
  } catch {
    return undefined;
  }
}

/**
 * The messages the floor sends, in the order the audit sent them, over every connection of the audit: all but the
 * long-lived `subscriptions/listen` requests (which stay open until their client ends them; `skipped` counts them) and,
 * over HTTP, GET requests (a GET may open a stream that stays open). stdio: `{ text, id, connection }` (connection: the
 * target process the audit wrote it to); HTTP: the request as sent.
 */
export function floorMessages(entries, kind) {
  const messages = [];
  let skipped = 0;
  for (const entry of entries) {
    if (kind === 'stdio' && entry.stdio !== undefined) {
      if (methodOf(entry.line) === 'subscriptions/listen') skipped += 1;
      else messages.push({ text: entry.line, id: answerId(entry.line), connection: entry.stdio });
    } else if (kind === 'http' && entry.http !== undefined) {
      const { method, body } = entry.http;
      if (method === 'GET' || (body !== undefined && methodOf(body) === 'subscriptions/listen')) skipped += 1;
      else messages.push(entry.http);
    }
  }
  return { messages, skipped };
}
