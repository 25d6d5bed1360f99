import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

export const MALFORMED_REQUEST = 'malformed HTTP request';
export const HEADERS_TOO_LARGE = 'request headers too large';
export const REQUEST_TIMEOUT = 'request timeout';
export const UNSUPPORTED_EXPECT = 'unsupported Expect header';

type ParserError = Error & { code?: string };
type RequestLogger = (req: IncomingMessage, res: ServerResponse) => void;

/** Status and text for an error of Node's HTTP parser (llhttp `HPE_*` codes, Node's timeouts). */
function answerFor(error: ParserError): [number, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW') return [431, HEADERS_TOO_LARGE];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT') return [408, REQUEST_TIMEOUT];
  return [400, MALFORMED_REQUEST];
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Requests that Node's HTTP server refuses before Express sees them: a request line or headers
 * the parser cannot read (an unknown method, raw non-ASCII bytes in the target, headers over
 * 16 KB) and an `Expect` header other than `100-continue`. Node answers those with an empty body
 * and logs nothing; here they get the contract's `{"error": …}`, an `X-Request-Id` and a log line
 * like any other request.
 */
export function answerParserErrors(server: Server, root: Logger, logRequest: RequestLogger): void {
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    // The client went away, or a response is already going out on this connection (its bytes
    // would be corrupted): nothing more to say. The same rule as Node's own handler.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, text] = answerFor(error);
    const id = randomUUID();
    const body = JSON.stringify({ error: text });
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${id}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
    // The server keeps connections half-open after our FIN; close it once the answer is out.
    socket.once('finish', () => socket.destroy());
    // The parser gave up before a request existed: no method or path to log, only why.
    root.info({ req: { id }, res: { statusCode: status }, parserError: error.code ?? error.message }, 'request refused by the HTTP parser');
  });

  // With a listener, Node leaves unknown expectations to us instead of sending a bare 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    logRequest(req, res);
    const body = JSON.stringify({ error: UNSUPPORTED_EXPECT });
    res.writeHead(400, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    res.end(body);
  });
}
