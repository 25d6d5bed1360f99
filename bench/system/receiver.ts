// The webhook endpoint, in the benchmark's own process: answers 200 to every POST at once and
// notes in the ledger, at the moment of the answer, which message a scan.chat carried (its
// chat_message_id: deliveries are deduplicated on it). Repeated webhook-ids (a delivery sent again)
// are counted apart.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Ledger } from './ledger.js';
import { wallNow } from './proc-stats.js';

export class WebhookReceiver {
  readonly deliveryIds = new Set<string>();
  repeatedDeliveries = 0;
  otherEvents = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(ledger: Ledger): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const deliveryId = String(req.headers['webhook-id'] ?? '');
        if (receiver) {
          if (receiver.deliveryIds.has(deliveryId)) receiver.repeatedDeliveries += 1;
          receiver.deliveryIds.add(deliveryId);
        }
        res.writeHead(200, { 'Content-Length': '0' }).end();
        const at = wallNow();
        if (req.headers['x-svc-event'] === 'scan.chat') {
          ledger.arrived((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { chat_message_id: string }).chat_message_id, at);
        } else if (receiver) receiver.otherEvents += 1;
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    return receiver;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
