/**
 * Why these client-side catalog rows of 2026-07-28 have no client check of their own: each is judged through other
 * checks, binds no client of this audit, or cannot be seen from the server's side of the wire.
 */
export const CLIENT_ROW_REASONS: Readonly<Record<string, string>> = {
  'base.must-support-core':
    'an umbrella with no behaviour of its own: it is judged through its parts, the client checks of the base ' +
    'protocol (base.*, meta.*), versioning (version.*, http.pv.*) and the message patterns (mrtr.*, ' +
    'progress.*, cache.notif.invalidates for subscriptions)',
  'err.accept-32002':
    'not a Tools rule: -32002 is the resource-not-found error of resources/read on earlier revisions ' +
    '(basic/index § Error Codes links it to server/resources), and the scripted server offers tools only, so ' +
    'no request of a Tools audit can be answered with it',
  'jsonschema.ref.optin-safeguards':
    'binds only an opt-in mode that fetches non-local $refs, which MUST be disabled by default; a driver runs ' +
    'the client as it comes, where jsonschema.ref.no-network checks that nothing is fetched at all',
  'meta.info.no-behavior':
    'not judged: showing that serverInfo changed what a client does needs two runs against servers that differ ' +
    'only in serverInfo, compared; a client audit is one run against one scripted server',
  'discover.serverinfo.client':
    'not judged: showing that serverInfo changed what a client does needs two runs against servers that differ ' +
    'only in serverInfo, compared; a client audit is one run against one scripted server',
  'icons.client.reject-unsafe':
    "not observable: icons are for a host's user interface; a driver lists and calls tools and renders " +
    'nothing, so whether a client would fetch or reject an icon URI never shows on the wire',
  'icons.same-origin':
    "not observable: icons are for a host's user interface; a driver lists and calls tools and renders " +
    'nothing, so where a client would fetch an icon from never shows on the wire',
  'stdio.no-embedded-newlines':
    'judged by stdio.client.stdin-clean: the scripted server reads stdin line by line, so a message with an ' +
    'embedded newline arrives as lines that are not MCP messages, which that check fails',
  'version.era-cache':
    'binds clients that detect the era of a server (those that speak both modern and initialize revisions); ' +
    'against the scripted 2026-07-28 server a second server/discover cannot be told apart from a modern-only ' +
    'client asking for the capabilities again, which no rule limits',
  'stdio.shutdown.client':
    "not observable: the server's stdin ends when the client closes it and also when the client process exits, " +
    'so the scripted server cannot tell a shutdown that closes its input first from an exit; and a server that ' +
    'exits at end of input, as the scripted one does, never needs the signals that follow',
  'stdio.compat.probe':
    'judged by version.matrix.stdio-discover-first for every client that speaks 2026-07-28 (its first request ' +
    'must be server/discover); of a client that opens with initialize the wire shows that it did not probe, ' +
    'but not whether it also supports a modern version, which is the condition of this rule',
  'progress.rate-limit':
    'not judged: a 2026-07-28 client sends no progress (servers send it no requests; input is asked through ' +
    'input_required results), and how many incoming notifications a client may drop has no bound in the text ' +
    'to test against',
  'elicit.client.at-least-one-mode':
    'no check of its own: an empty elicitation capability declares form mode (client/elicitation § ' +
    'Capabilities), so every declaration names a mode, and whether the client supports it shows when mrtr_ask ' +
    'asks a client that declares elicitation for form input, which mrtr.client.fulfill-before-retry judges ' +
    '(every input request answered in the retry)',
  'stdio.cancel.client':
    'judged within cancel.timeout-cancel: on stdio, notifications/cancelled referencing the request id is the ' +
    'only way to cancel, so the wire shows only whether a client that gave a call up cancelled it at all, ' +
    'which is that SHOULD (slow_answer); a cancellation that names no request it issued is cancel.ref-valid',
  'cancel.client.ignore-late':
    'not observable: when the late answer arrives the driver has already printed its error line for the call, ' +
    'so what the library does with the answer shows only if the client crashes, which ends the run with exit 3 ' +
    'and names the exit',
  'cancel.race':
    'not observable beyond a crash: a client that mishandles an answer crossing its cancellation can only stop ' +
    'working, which ends the run with exit 3 and names the exit',
  'cache.client.key':
    'not observable: a page served from the cache for another cursor never reaches the server, and shows only ' +
    'as a wrong {"listed": n} or a walk that never ends, which cannot be told apart from other faults',
  'cache.client.no-cache-mrtr':
    'nothing to cache on the Tools page: the requests carrying inputResponses or requestState are tools/call ' +
    'retries, and tools/call results are not cacheable (server/utilities/caching lists the cacheable ' +
    'operations; tools/call is not among them)',
  'cache.client.ttl-positive':
    'not judged: a positive ttlMs says how long the client MAY cache the result (the description of ttlMs in ' +
    'schema.json) and caching is its choice, so a client that asks again breaks nothing; serving a listing ' +
    'past its freshness is what cache.client.ttl-zero and cache.notif.invalidates judge',
  'cache.client.ttl-absent':
    'not judged: a 2026-07-28 listing without ttlMs breaks the schema (schema.json requires it), and a client ' +
    'that validates results against the schema may refuse the whole listing, which would hide every other ' +
    'check; the scripted server sends only valid listings',
  'cache.client.ttl-negative':
    'not judged: a negative ttlMs breaks the schema (minimum 0 in schema.json, and servers MUST provide a ' +
    'value >= 0), and a client that validates results against the schema may refuse the whole listing, which ' +
    'would hide every other check; the scripted server sends only valid listings',
  'cache.client.no-ttl-polling':
    'not observable within the driver contract: background refetches show only while a client sits idle past a ' +
    'TTL, and the driver ends the client once its steps are done (an idle step would add its length to every ' +
    'audit)',
  'cache.client.poll-jitter':
    'not observable within the driver contract: polling shows only while a client sits idle past a TTL, and ' +
    'the driver ends the client once its steps are done (an idle step would add its length to every audit)',
  'cache.scope.private-no-share':
    'needs two authorization contexts (two access tokens); the scripted server has no authorization and marks ' +
    'its listings public',
  'cache.page.invalid-cursor-restart':
    'planned: needs a second listing whose page-2 cursor, valid in the first, is answered with an error; the ' +
    'driver contract has no line for a listing that failed, so a client that gives up could not be told from ' +
    'one that never listed again',
  'cache.page.snapshot-restart':
    'binds only clients that require a consistent snapshot of the full list, which nothing a client sends ' +
    'declares; a client that walks again from the first page is what cache.client.ttl-zero sees',
};
