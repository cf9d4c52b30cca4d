import { ExecutionContext, HttpException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PublicRoute } from '@app/observability';
import { DEFERRED_BODY_ERROR } from './deferred-body-error';
import { OperatorAuthGuard } from './operator-auth.guard';
import { OperatorTokens } from './operator-tokens';

const TOKEN = 'an-operator-token-of-24-chars';
const ALICE = 'alices-token-of-24-characters';

class OperatorController {
  stats(): void {}
}
@PublicRoute()
class HealthController {
  check(): void {}
}

function call(
  guard: OperatorAuthGuard,
  request: {
    headers: Record<string, string>;
    user?: { name: string };
    [DEFERRED_BODY_ERROR]?: unknown;
  },
  route: [controller: object, handler: () => void] = [
    OperatorController,
    OperatorController.prototype.stats,
  ],
): { status: number; challenge?: string[] } {
  const response = { headers: {} as Record<string, string[]> };
  const [controller, handler] = route;
  const context = {
    getType: () => 'http',
    getHandler: () => handler,
    getClass: () => controller,
    switchToHttp: () => ({
      getRequest: () => request,
      getResponse: () => ({
        setHeader: (name: string, value: string[]) => (response.headers[name] = value),
      }),
    }),
  } as unknown as ExecutionContext;
  try {
    guard.canActivate(context);
    return { status: 200 };
  } catch (error) {
    return {
      status: (error as HttpException).getStatus(),
      challenge: response.headers['WWW-Authenticate'],
    };
  }
}

const health: [object, () => void] = [HealthController, HealthController.prototype.check];

describe('OperatorAuthGuard', () => {
  const guard = new OperatorAuthGuard(
    new Reflector(),
    OperatorTokens.fromEnv(TOKEN, `alice:${ALICE}`),
  );
  const basic = (password: string) =>
    `Basic ${Buffer.from(`anyone:${password}`).toString('base64')}`;

  it('lets the token in as a bearer token or as a Basic password', () => {
    expect(call(guard, { headers: { authorization: `Bearer ${TOKEN}` } })).toEqual({ status: 200 });
    expect(call(guard, { headers: { authorization: basic(TOKEN) } })).toEqual({ status: 200 });
  });

  it("names the caller after the token's holder, never after the Basic user name", () => {
    const bearer = { headers: { authorization: `Bearer ${ALICE}` }, user: undefined };
    expect(call(guard, bearer)).toEqual({ status: 200 });
    expect(bearer.user).toEqual({ name: 'alice' });
    const typed = { headers: { authorization: basic(TOKEN) }, user: undefined };
    expect(call(guard, typed)).toEqual({ status: 200 });
    expect(typed.user).toEqual({ name: 'operator' });
  });

  it('answers 401 with both challenges without the token, with a wrong one, or a malformed header', () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      basic('nope'),
      'Token abc',
      'Basic %%%',
    ]) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      expect(call(guard, { headers })).toEqual({
        status: 401,
        challenge: ['Bearer realm="operator"', 'Basic realm="operator", charset="UTF-8"'],
      });
    }
  });

  it('leaves public routes open', () => {
    expect(call(guard, { headers: {} }, health)).toEqual({ status: 200 });
  });

  it('answers an unreadable body only after the token was checked', () => {
    const tooLarge = { status: 413, type: 'entity.too.large', message: 'too large' };
    expect(call(guard, { headers: {}, [DEFERRED_BODY_ERROR]: tooLarge }).status).toBe(401);
    const withToken = { authorization: `Bearer ${TOKEN}` };
    expect(call(guard, { headers: withToken, [DEFERRED_BODY_ERROR]: tooLarge }).status).toBe(413);
    expect(call(guard, { headers: {}, [DEFERRED_BODY_ERROR]: tooLarge }, health).status).toBe(413);
  });

  it('opens every route when the token is null (OPS_API_INSECURE)', () => {
    const open = new OperatorAuthGuard(new Reflector(), null);
    expect(call(open, { headers: {} })).toEqual({ status: 200 });
  });
});
