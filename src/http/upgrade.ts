// Only WebSocket upgrades are upgrades. Java's HttpClient (the official
// command-line client's) asks every plain-http request to switch to HTTP/2
// (`Connection: Upgrade, HTTP2-Settings`, `Upgrade: h2c`), which a server may
// ignore. Node, however, hands any request with an Upgrade header to the
// server's 'upgrade' listeners as soon as one exists (the GraphQL WebSocket's),
// and that listener refuses anything but a WebSocket handshake: the client's
// every call failed with 400 or 405. Requests made with this message class
// count as upgrades only when they ask for a WebSocket; the others are answered
// as the ordinary HTTP/1.1 requests they also are (body included).
import { IncomingMessage } from 'node:http';

const asksForWebSocket = (value: string | undefined) =>
  (value ?? '').split(',').some((token) => token.trim().toLowerCase() === 'websocket');

export class WebSocketOnlyUpgrades extends IncomingMessage {
  private requestedUpgrade = false;

  // Node's HTTP parser sets `upgrade` from the request line and headers, then
  // reads it back to decide between the 'upgrade' event and a normal request.
  get upgrade(): boolean {
    return this.requestedUpgrade && (this.method === 'CONNECT' || asksForWebSocket(this.headers.upgrade));
  }

  set upgrade(value: boolean) {
    this.requestedUpgrade = value;
  }
}
