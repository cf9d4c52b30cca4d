import { isSecretName, redactText, redactValue, REDACTED } from './secrets';

const TOKEN = 'tok-0123456789abcdefghijklmn';
const BASIC = Buffer.from(`ops:${TOKEN}`).toString('base64');

describe('redactText', () => {
  it.each([
    [`Authorization: Bearer ${TOKEN}`, `Authorization: Bearer ${REDACTED}`],
    [`"authorization":"Basic ${BASIC}"`, `"authorization":"Basic ${REDACTED}"`],
    [`GET http://ops:${TOKEN}@127.0.0.1:3000/ops`, `GET http://ops:${REDACTED}@127.0.0.1:3000/ops`],
    [`/inbox/stats?token=${TOKEN}&limit=5`, `/inbox/stats?token=${REDACTED}&limit=5`],
    [`/x?a=1&access_token=${TOKEN}`, `/x?a=1&access_token=${REDACTED}`],
    [`/x?API_KEY=${TOKEN}#frag`, `/x?API_KEY=${REDACTED}#frag`],
  ])('hides the credential in %s', (text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it('leaves challenges, placeholders and ordinary queries alone', () => {
    const text =
      'WWW-Authenticate: Bearer realm="operator" (Authorization: Bearer <OPS_API_TOKEN>) /inbox/deliveries?limit=5&eventType=OrderPaid';
    expect(redactText(text)).toBe(text);
  });
});

describe('redactValue', () => {
  it('replaces fields with a secret name and scrubs strings, however nested', () => {
    const error = Object.assign(new Error(`failed GET /x?token=${TOKEN}`), {
      config: { headers: { Authorization: `Bearer ${TOKEN}`, accept: 'json' } },
    });
    const safe = redactValue({
      broker: '127.0.0.1:9092',
      sasl: { mechanism: 'plain', username: 'u', password: TOKEN },
      cookie: 'sid=abc',
      error,
    });
    expect(JSON.stringify(safe)).not.toContain(TOKEN);
    expect(safe).toMatchObject({
      broker: '127.0.0.1:9092',
      sasl: { mechanism: 'plain', username: 'u', password: REDACTED },
      cookie: REDACTED,
      error: {
        message: `failed GET /x?token=${REDACTED}`,
        config: { headers: { accept: 'json' } },
      },
    });
  });
});

describe('isSecretName', () => {
  it.each([
    'authorization',
    'Cookie',
    'set-cookie',
    'x-pay-signature',
    'token',
    'access_token',
    'refreshToken',
    'api-key',
    'password',
  ])('says %s is secret', (name) => expect(isSecretName(name)).toBe(true));
  it.each(['limit', 'eventType', 'consumer', 'key', 'x-pay-timestamp', 'x-correlation-id'])(
    'says %s is not',
    (name) => expect(isSecretName(name)).toBe(false),
  );
});
