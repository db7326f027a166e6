// Child process of the subscription benchmark: opens N graphql-ws clients,
// subscribes each to the project's job events, reports "ready", then collects
// delivery latencies until every client saw the final state, and prints them.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const [url, apiKey, countArg] = process.argv.slice(2);
const count = Number(countArg);
const latencies: number[] = [];
let connected = 0;
const finished: Promise<void>[] = [];
const clients = [];
for (let i = 0; i < count; i++) {
  const client = createClient({
    url: url!,
    webSocketImpl: WebSocket,
    connectionParams: { 'X-Service-Token': apiKey },
    lazy: false,
    on: { connected: () => connected++ },
  });
  clients.push(client);
  finished.push(
    new Promise<void>((resolve, reject) => {
      const dispose = client.subscribe(
        { query: 'subscription { projectJobEvents { state at } }' },
        {
          next: (value: any) => {
            const event = value.data?.projectJobEvents;
            if (!event) return;
            latencies.push(Date.now() - Date.parse(event.at));
            if (event.state !== 'STARTED') {
              dispose();
              resolve();
            }
          },
          error: reject,
          complete: resolve,
        },
      );
    }),
  );
}
while (connected < count) await new Promise((r) => setTimeout(r, 50));
await new Promise((r) => setTimeout(r, 1500));
process.stdout.write('ready\n');
await Promise.all(finished);
process.stdout.write(JSON.stringify(latencies) + '\n');
await Promise.all(clients.map(async (c) => c.dispose()));
process.exit(0);
