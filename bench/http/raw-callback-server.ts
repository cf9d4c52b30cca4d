/**
 * The pay callback's raw transaction behind a hand-written `node:http` handler, in its own
 * process, for bench:http: what any HTTP service that does this job pays at least. Per POST it
 * reads the body, checks the provider's signature with the order-service's own
 * `verifyPayCallbackSignature`, parses the JSON, and runs the raw pay-callback transaction (the
 * order-service's statements, bare mysql2) on a pool of `connections`; it answers 200 with the
 * provider's answer, 401 on a bad signature, 500 on a failed transaction. No framework, no ORM,
 * no validation library, no logging, no relay.
 *
 * Usage: raw-callback-server.ts <database url> <secret> <connections>. Prints "PORT <n>" once
 * listening; SIGTERM stops it.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { createPool } from 'mysql2/promise';
import {
  PayCallbackHeader,
  verifyPayCallbackSignature,
} from '../../apps/order-service/src/payments/pay-callback.signature';
import { payCallbackTransaction } from '../lib/statement-shapes';

interface CallbackBody {
  notifyId: string;
  payOrderId: string;
  orderId: string;
  amount: number;
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(json),
  });
  response.end(json);
}

async function main(): Promise<void> {
  const [url, secret, connections] = process.argv.slice(2);
  const pool = createPool({ uri: url, connectionLimit: Number(connections), timezone: 'Z' });
  pool.on('connection', (connection) => {
    connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
  });

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    // The order-service's own check (a plain function): the timestamp window and the HMAC.
    const verdict = verifyPayCallbackSignature({
      secrets: [secret],
      timestamp: request.headers[PayCallbackHeader.timestamp],
      signature: request.headers[PayCallbackHeader.signature],
      rawBody: body,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    if (!verdict.ok) return reply(response, 401, { error: verdict.reason });
    const callback = JSON.parse(body.toString('utf8')) as CallbackBody;
    const connection = await pool.getConnection();
    try {
      const answer = await payCallbackTransaction(
        connection,
        {
          id: callback.orderId,
          payOrderId: callback.payOrderId,
          amount: callback.amount,
          userId: '',
          version: 0,
        },
        callback.notifyId,
      );
      reply(response, 200, answer);
    } finally {
      connection.release();
    }
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) =>
      reply(response, 500, { error: error.message }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  process.stdout.write(`PORT ${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => {
    server.close();
    void pool.end().then(() => process.exit(0));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
