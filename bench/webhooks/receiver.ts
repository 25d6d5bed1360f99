// The bench's webhook endpoint, in a process of its own (as a receiver would be): answers 200 to
// every POST at once and reports, in batches over IPC, when each request arrived and what it
// carried (the chat message id of a scan.chat, else the webhook-id), on the machine's clock.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  key: string;
  at: number;
}

let batch: Arrival[] = [];
const flush = (): void => {
  if (batch.length === 0) return;
  process.send!({ type: 'arrivals', arrivals: batch });
  batch = [];
};
setInterval(flush, 50).unref();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = Date.now();
    let key = String(req.headers['webhook-id'] ?? '');
    if (req.headers['x-svc-event'] === 'scan.chat') key = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { chat_message_id: string }).chat_message_id;
    batch.push({ key, at });
    res.writeHead(200, { 'Content-Length': '0' }).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send!({ type: 'ready', port: (server.address() as AddressInfo).port }));
process.on('message', (message: { type: string }) => {
  if (message.type === 'flush') {
    flush();
    process.send!({ type: 'flushed' });
  }
});
process.on('disconnect', () => process.exit(0));
