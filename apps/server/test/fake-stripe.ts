import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the payment provider's billing-portal endpoint, speaking its HTTP API so
 * the official SDK runs unchanged. Customers starting with `cus_missing` answer a provider error.
 */
export async function startFakeStripe() {
  const requests: Array<{ path: string; authorization: string | undefined; body: URLSearchParams }> = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on('end', () => {
      const body = new URLSearchParams(raw);
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || req.url !== '/v1/billing_portal/sessions') {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }));
        return;
      }
      const customer = body.get('customer') ?? '';
      if (customer.startsWith('cus_missing')) {
        res.statusCode = 400;
        res.end(
          JSON.stringify({
            error: { type: 'invalid_request_error', message: `No such customer: '${customer}'`, param: 'customer' },
          }),
        );
        return;
      }
      res.end(
        JSON.stringify({
          id: 'bps_test_1',
          object: 'billing_portal.session',
          customer,
          return_url: body.get('return_url'),
          url: `https://billing.example.test/p/session/${customer}`,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
