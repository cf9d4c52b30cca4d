import { Controller, DynamicModule, Get, INestApplication, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ServiceEnv } from '@app/config';
import { PublicRoute } from '@app/observability';
import { OperatorAuthModule } from './operator-auth.module';

const TOKEN = 'an-operator-token-of-24-chars';

@Controller()
class RoutesController {
  @Get('stats')
  stats(): { ok: true } {
    return { ok: true };
  }

  @PublicRoute()
  @Get('health')
  health(): { ok: true } {
    return { ok: true };
  }
}

/** An app with one operator route (/stats) and one public route (/health) behind `auth`. */
async function serve(auth: DynamicModule) {
  @Module({ imports: [auth], controllers: [RoutesController] })
  class AppModule {}
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  return app;
}

async function status(app: INestApplication, path: string, token?: string): Promise<number> {
  const headers = token === undefined ? undefined : { authorization: `Bearer ${token}` };
  return (await fetch(`${await app.getUrl()}${path}`, { headers })).status;
}

describe('OperatorAuthModule', () => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('answers 401 on an operator route without the token, and serves it with the token', async () => {
    app = await serve(OperatorAuthModule.forRoot({ token: TOKEN }));
    expect(await status(app, '/stats')).toBe(401);
    expect(await status(app, '/stats', 'a-wrong-token-of-24-characters')).toBe(401);
    expect(await status(app, '/stats', TOKEN)).toBe(200);
    expect(await status(app, '/health')).toBe(200);
  });

  it("reads the tokens from the service's validated config (OPS_API_TOKENS)", async () => {
    class Env extends ServiceEnv {}
    const env = Object.assign(new Env(), { OPS_API_TOKENS: `alice:${TOKEN}` });
    @Module({ providers: [{ provide: Env, useValue: env }], exports: [Env] })
    class EnvModule {}
    const withEnv = OperatorAuthModule.forService(Env);
    app = await serve({ ...withEnv, imports: [EnvModule] });
    expect(await status(app, '/stats')).toBe(401);
    expect(await status(app, '/stats', TOKEN)).toBe(200);
  });

  it('opens every route when insecure, and says so in the log', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      app = await serve(OperatorAuthModule.forRoot({ insecure: true }));
      expect(await status(app, '/stats')).toBe(200);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^OPS_API_INSECURE=true/));
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses to be wired without a token unless insecure', () => {
    expect(() => OperatorAuthModule.forRoot({})).toThrow(/OPS_API_TOKEN or OPS_API_TOKENS/);
  });
});
