import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StdioTransport } from './stdio.js';
import { liveChildCount } from './children.js';

/** A tiny target written inline: it answers each request line by running `respond`. */
function target(respond: string, preamble = ''): string {
  const file = join(mkdtempSync(join(tmpdir(), 'stdio-target-')), 'target.cjs');
  writeFileSync(
    file,
    `${preamble};require('readline').createInterface({input:process.stdin}).on('line',(l)=>{const ` +
      `m=JSON.parse(l);${respond}})`,
  );
  return `${process.execPath} ${file}`;
}

const request = (id: number) => ({ jsonrpc: '2.0', id, method: 'x', params: {} });

describe('StdioTransport', () => {
  it('starts its target once however often start() is called: a connection started ahead is started again by its user', async () => {
    const pids = join(mkdtempSync(join(tmpdir(), 'stdio-pids-')), 'pids');
    const t = new StdioTransport({
      command: target(
        `console.log(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{}}))`,
        `require('fs').appendFileSync(${JSON.stringify(pids)}, process.pid+'\\n')`,
      ),
      timeoutMs: 2000,
    });
    const first = t.start();
    expect(t.start()).toBe(first);
    await first;
    await t.start();
    expect((await t.send(request(1), 1)).response).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(readFileSync(pids, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
    await t.close();
  });

  it("gives a second start() the first one's failure instead of trying again", async () => {
    const t = new StdioTransport({ command: '/nonexistent/mtc-target', timeoutMs: 1000 });
    await expect(t.start()).rejects.toThrow(/cannot start/);
    await expect(t.start()).rejects.toThrow(/cannot start/);
  });

  it('correlates responses by id, even out of order, and records notifications and noise', async () => {
    const t = new StdioTransport({
      command: target(
        `if(m.id===1){setTimeout(()=>console.log(JSON.stringify({jsonrpc:'2.0',id:1,result:{a:1}})),30)}` +
          `else{console.log('log ` +
          `line');console.log(JSON.stringify({jsonrpc:'2.0',method:'notifications/progress'}));` +
          `console.log(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{b:2}}))}`,
      ),
      timeoutMs: 2000,
    });
    await t.start();
    const [a, b] = await Promise.all([t.send(request(1), 1), t.send(request(2), 2)]);
    expect(a.response).toEqual({ jsonrpc: '2.0', id: 1, result: { a: 1 } });
    expect(b.response).toEqual({ jsonrpc: '2.0', id: 2, result: { b: 2 } });
    expect(b.seq).toBeGreaterThan(a.seq);
    expect(b.notifications.length + a.notifications.length).toBeGreaterThan(0);
    expect(
      t
        .strays()
        .filter((s) => s.kind === 'non-json')
        .map((s) => s.data),
    ).toEqual(['log line']);
    await t.close();
  });

  it('marks a message whose line was not valid UTF-8, whether it answers, notifies or strays; valid multi-byte text split across writes is not marked', async () => {
    // Bytes written raw: a Latin-1 é (0xE9) inside a JSON string, and a valid "é€🌦" cut into single-byte writes.
    const t = new StdioTransport({
      command: target(
        `const w=(s)=>process.stdout.write(Buffer.from(s,'latin1'));` +
          `if(m.id===1){w('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"caf\xe9"}}\\n');` +
          `w('{"jsonrpc":"2.0","id":1,"result":{"t":"caf\xe9"}}\\n')}` +
          `else if(m.id===2){const ` +
          `b=Buffer.from(JSON.stringify({jsonrpc:'2.0',id:2,result:{t:'\u00e9\u20ac\ud83c\udf26 ` +
          `\ufffd'}})+'\\n');let i=0;const ` +
          `next=()=>{if(i<b.length){process.stdout.write(b.subarray(i,i+1));i+=1;setImmediate(next)}};next()}` +
          `else{w('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"\xff"}}\\n')}`,
      ),
      timeoutMs: 2000,
    });
    await t.start();
    const bad = await t.send(request(1), 1);
    expect(bad.response).toEqual({ jsonrpc: '2.0', id: 1, result: { t: 'caf\uFFFD' } });
    expect(bad.invalidUtf8).toBe(2);
    const good = await t.send(request(2), 2);
    expect(good.response).toMatchObject({ result: { t: '\u00e9\u20ac\ud83c\udf26 \ufffd' } });
    expect(good.invalidUtf8).toBeUndefined();
    // With nothing pending, a notification is a stray, marked there.
    await t.send({ jsonrpc: '2.0', method: 'x' }, undefined, { notification: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      t
        .strays()
        .filter((s) => s.invalidUtf8)
        .map((s) => s.data),
    ).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { data: '\uFFFD' } }]);
    expect(t.strays().filter((s) => !s.invalidUtf8)).toEqual([]);
    await t.close();
  });

  it('times out a request without blaming later ones for its late answer', async () => {
    const t = new StdioTransport({
      command: target(`setTimeout(()=>console.log(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{}})), m.id===1?300:0)`),
      timeoutMs: 100,
    });
    await t.start();
    const first = await t.send(request(1), 1);
    expect(first.failure?.kind).toBe('timeout');
    const second = t.send(request(2), 2, { timeoutMs: 1000 });
    const late = await second;
    expect(late.failure).toBeUndefined();
    await t.close();
  });

  it("places answers and strays in the run's sequence, in the order they arrived, even within one write", async () => {
    // Request 1 is answered late (a stray after its timeout); request 2's answer and a notification come later, in one
    // write.
    const t = new StdioTransport({
      command: target(
        `const ` +
          `line=(o)=>JSON.stringify(o)+'\\n';if(m.id===1)setTimeout(()=>process.stdout.write(line({jsonrpc:'2.0',` +
          `id:1,result:{}})),150);` +
          `else ` +
          `setTimeout(()=>process.stdout.write(line({jsonrpc:'2.0',id:2,result:{}})+line({jsonrpc:'2.0',` +
          `method:'notifications/message',params:{}})),300)`,
      ),
      timeoutMs: 100,
    });
    await t.start();
    const first = await t.send(request(1), 1);
    const second = await t.send(request(2), 2, { timeoutMs: 1000 });
    await new Promise((r) => setTimeout(r, 50));
    expect(first.answeredSeq).toBeUndefined();
    const [late, notification] = t.strays();
    expect(late).toMatchObject({ kind: 'unknown-id', data: { id: 1 } });
    expect(notification).toMatchObject({ kind: 'notification' });
    // Sent at 0 and 100 ms; then, arriving: the late answer (150 ms), request 2's answer and the notification (300 ms).
    const order = [first.seq, second.seq, late!.seq!, second.answeredSeq!, notification!.seq!];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size).toBe(order.length);
    await t.close();
  });

  it('fails a lone pending request at once when the answer carries another id', async () => {
    const t = new StdioTransport({
      command: target(`console.log(JSON.stringify({jsonrpc:'2.0',id:999,result:{}}))`),
      timeoutMs: 5000,
    });
    await t.start();
    const started = Date.now();
    const e = await t.send(request(1), 1);
    expect(e.failure?.kind).toBe('wrong-id');
    expect(Date.now() - started).toBeLessThan(2000);
    await t.close();
  });

  it('takes a JSON-RPC batch line holding the answer to a waiting id as its response; one answering nothing is a stray', async () => {
    const answerBatch =
      `if(Array.isArray(m))console.log(JSON.stringify(m.map((r)=>({jsonrpc:'2.0',id:r.id,result:{}` +
      `}))));else console.log(JSON.stringify([{jsonrpc:'2.0',id:'other',result:{}}]))`;
    const t = new StdioTransport({ command: target(answerBatch), timeoutMs: 1000 });
    await t.start();
    const e = await t.send([request(1), request(2)], 2);
    expect([e.failure, e.response]).toEqual([
      undefined,
      [
        { jsonrpc: '2.0', id: 1, result: {} },
        { jsonrpc: '2.0', id: 2, result: {} },
      ],
    ]);
    expect((await t.send(request(3), 3)).failure?.kind).toBe('timeout');
    expect(t.strays().map((s) => [s.kind, s.data])).toEqual([
      ['unknown-id', [{ jsonrpc: '2.0', id: 'other', result: {} }]],
    ]);
    await t.close();
  });

  it('reports the exit of the target with its stderr, and fails later sends at once', async () => {
    const t = new StdioTransport({
      command: target('', `console.error('boom');setTimeout(()=>process.exit(7),50)`),
      timeoutMs: 5000,
    });
    await t.start();
    const e = await t.send(request(1), 1);
    expect(e.failure?.kind).toBe('target-exited');
    expect(e.failure?.message).toMatch(/code 7.*boom/);
    expect((await t.send(request(2), 2)).failure?.kind).toBe('target-exited');
    await t.close();
  });

  it('reassembles a multi-megabyte line written in small pieces, with CRLF, next to a line in the same piece', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { pad: 'é'.repeat(3_000_000) } });
    const write =
      `const s=${JSON.stringify(body)}` +
      `+'\\r\\n'+JSON.stringify({jsonrpc:'2.0',id:2,result:{}})+'\\n';let i=0;const ` +
      `next=()=>{if(i>=s.length)return;process.stdout.write(s.slice(i,i+=4093),next)};next()`;
    const t = new StdioTransport({ command: target(`if(m.id===2){${write}}`), timeoutMs: 20_000 });
    await t.start();
    const [one, two] = await Promise.all([t.send(request(1), 1), t.send(request(2), 2)]);
    expect(JSON.stringify(one.response)).toBe(body);
    expect(two.response).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(t.strays()).toEqual([]);
    await t.close();
  });

  it('refuses an oversized line and keeps going', async () => {
    const t = new StdioTransport({
      command: target(`console.log(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{pad:'x'.repeat(5000)}}))`),
      timeoutMs: 2000,
      maxMessageBytes: 1000,
    });
    await t.start();
    expect((await t.send(request(1), 1)).failure?.kind).toBe('too-large');
    expect((await t.send(request(2), 2)).failure?.kind).toBe('too-large');
    await t.close();
  });

  it('refuses an oversized line that arrives in many pieces, then reads the next line', async () => {
    const write =
      `const ` +
      `s=JSON.stringify({jsonrpc:'2.0',id:1,result:{pad:'x'.repeat(50000)}})+'\\n'+JSON.stringify({jsonrpc:'2.0',` +
      `id:2,result:{}})+'\\n';let i=0;const ` +
      `next=()=>{if(i>=s.length)return;process.stdout.write(s.slice(i,i+=1000),next)};next()`;
    const t = new StdioTransport({
      command: target(`if(m.id===2){${write}}`),
      timeoutMs: 5000,
      maxMessageBytes: 10_000,
    });
    await t.start();
    const [one, two] = await Promise.all([t.send(request(1), 1), t.send(request(2), 2)]);
    expect(one.failure?.kind).toBe('too-large');
    expect(two.response).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    await t.close();
  });

  it('kills a target that ignores stdin EOF and SIGTERM, leaving no child behind', async () => {
    const t = new StdioTransport({
      command: target('', `process.on('SIGTERM',()=>{});process.stdin.on('end',()=>{});setInterval(()=>{},1000)`),
      timeoutMs: 1000,
    });
    const before = liveChildCount();
    await t.start();
    expect(liveChildCount()).toBe(before + 1);
    await t.close();
    expect(liveChildCount()).toBe(before);
  });

  it('cannot start a missing program', async () => {
    await expect(new StdioTransport({ command: 'no-such-program-xyz', timeoutMs: 1000 }).start()).rejects.toThrow(
      /ENOENT/,
    );
  });

  it('holds a subscriptions/listen open: collects its notifications, does not blame it for stray ids, cancels it on close()', async () => {
    const t = new StdioTransport({
      command: target(
        `if(m.method==='subscriptions/listen'){console.log(JSON.stringify({jsonrpc:'2.0',id:'stray',result:{}})` +
          `);console.log(JSON.stringify({jsonrpc:'2.0',method:'notifications/subscriptions/acknowledged',` +
          `params:{_meta:{'io.modelcontextprotocol/subscriptionId':m.id}}}))}` +
          `else ` +
          `if(m.method==='notifications/cancelled'){console.log(JSON.stringify({jsonrpc:'2.0',` +
          `method:'cancelled-seen',params:m.params}))}` +
          `else{console.log(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{ok:1}}))}`,
      ),
      timeoutMs: 2000,
    });
    await t.start();
    const stream = await t.listen({ jsonrpc: '2.0', id: 5, method: 'subscriptions/listen', params: {} }, 5);
    expect(await stream.waitFor((messages) => messages.length === 1, 1000)).toBe(true);
    expect(stream.exchange.failure).toBeUndefined();
    expect(t.strays().map((s) => s.kind)).toContain('unknown-id');
    const other = await t.send(request(6), 6);
    expect(other.failure).toBeUndefined();
    expect(other.response).toEqual({ jsonrpc: '2.0', id: 6, result: { ok: 1 } });
    expect(stream.ended).toBe(false);
    const closed = await stream.close();
    expect(closed.failure).toBeUndefined();
    expect(closed.response).toBeUndefined();
    const probe = await t.send(request(7), 7);
    expect(probe.notifications.concat(t.strays().map((s) => s.data))).toContainEqual({
      jsonrpc: '2.0',
      method: 'cancelled-seen',
      params: { requestId: 5, reason: 'subscription no longer needed' },
    });
    await t.close();
  });

  it('endInput closes stdin and reports whether the target exited by itself', async () => {
    const polite = new StdioTransport({
      command: target(`console.log(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{}}))`),
      timeoutMs: 2000,
    });
    await polite.start();
    await polite.send(request(1), 1);
    const ended = await polite.endInput(5000);
    expect(ended).toMatchObject({ kind: 'exited', how: 'with code 0' });
    expect(ended.kind === 'exited' && ended.afterMs).toBeLessThan(5000);
    expect(await polite.endInput(100)).toEqual({ kind: 'already-exited', how: 'with code 0' });
    await polite.close();

    const stubborn = new StdioTransport({ command: target('', 'setInterval(()=>{},1000)'), timeoutMs: 2000 });
    await stubborn.start();
    expect(await stubborn.endInput(300)).toEqual({ kind: 'still-running', waitedMs: 300 });
    await stubborn.close();
  });
});
