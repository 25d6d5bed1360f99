import { connect } from 'node:net';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Starts listening on a free port if supertest has not yet; the port. */
export async function portOf(server: Server): Promise<number> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Sends bytes exactly as given (no client library would send a malformed request) on a new
 * connection and reads the first response until the server closes the connection.
 */
export async function rawRequest(server: Server, request: Buffer | string): Promise<RawResponse> {
  const port = await portOf(server);
  const data = await new Promise<Buffer>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.write(request);
  });
  const text = data.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4) };
}
