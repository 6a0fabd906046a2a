// bench.js: the Node.js helpers of scripts/bench-resume.sh.
//
//   node bench.js serve PORTFILE       a scripted Anthropic Messages API server:
//                                      every request gets the streamed text "ok"
//   node bench.js gen FILE ID N        write a plaintext session log of N events
//   node bench.js read FILE ID         read a log as the TypeScript SDK's file
//                                      checkpointer does (reference-behavior.md
//                                      §3.3, §3.8): the whole file, split into
//                                      lines, JSON.parse and validate each
'use strict';
const fs = require('fs');
const http = require('http');

const [mode, ...args] = process.argv.slice(2);

function sse(events) {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

if (mode === 'serve') {
  const reply = sse([
    { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'bench', content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 0 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
    { type: 'message_stop' },
  ]);
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(reply);
    });
  });
  srv.listen(0, '127.0.0.1', () => fs.writeFileSync(args[0], String(srv.address().port)));
} else if (mode === 'gen') {
  const [file, id, n] = [args[0], args[1], Number(args[2])];
  const fd = fs.openSync(file, 'w', 0o600);
  const text = 'lorem ipsum '.repeat(16);
  const ts = new Date().toISOString();
  let buf = [];
  for (let seq = 1; seq <= n; seq++) {
    const role = seq % 2 === 1 ? 'user' : 'assistant';
    const event = { type: role, message: { role, content: `${seq} ${text}` } };
    buf.push(JSON.stringify({ seq, sessionId: id, parentSeq: seq === 1 ? null : seq - 1, ts, event }));
    if (buf.length === 10000 || seq === n) {
      fs.writeSync(fd, buf.join('\n') + '\n');
      buf = [];
    }
  }
  fs.closeSync(fd);
} else if (mode === 'read') {
  const [file, id] = args;
  const t0 = process.hrtime.bigint();
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const events = lines.map((line, i) => {
    const rec = JSON.parse(line);
    const pos = i + 1;
    if (rec.seq !== pos || rec.sessionId !== id || rec.parentSeq !== (pos === 1 ? null : pos - 1) || typeof rec.event?.type !== 'string') {
      throw new Error(`Corrupt checkpoint record ${pos}`);
    }
    return rec;
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(`read ${events.length} records in ${ms.toFixed(1)} ms`);
} else {
  console.error('usage: node bench.js serve PORTFILE | gen FILE ID N | read FILE ID');
  process.exit(2);
}
