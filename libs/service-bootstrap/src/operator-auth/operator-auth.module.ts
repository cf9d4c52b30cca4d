import { DynamicModule, Logger, Module } from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { HttpEnv } from '@app/config';
import { OperatorAuthGuard } from './operator-auth.guard';
import {
  DEFAULT_OPERATOR_NAME,
  NamedToken,
  OperatorTokens,
  parseNamedTokens,
} from './operator-tokens';

/** Who may call a service's operator routes. One of `token`, `namedTokens` or `insecure`. */
export interface OperatorAuthOptions {
  /** The operator token (OPS_API_TOKEN, at least 24 characters), named `operator`. */
  token?: string;
  /** Named tokens (OPS_API_TOKENS): the name is who the audit log records. */
  namedTokens?: NamedToken[];
  /** Opens every route without a token (OPS_API_INSECURE), logged as a warning. */
  insecure?: boolean;
}

/**
 * The operator token that every HTTP route of a service needs unless it is marked
 * @PublicRoute(): registers OperatorAuthGuard as the app's guard. `forService` reads
 * OPS_API_TOKEN, OPS_API_TOKENS and OPS_API_INSECURE from the service's validated config at DI
 * time; `forRoot` takes them as options and checks them at once.
 */
@Module({})
export class OperatorAuthModule {
  static forService(schema: abstract new () => HttpEnv): DynamicModule {
    return OperatorAuthModule.withTokens([schema], (env: HttpEnv) =>
      resolveOperatorTokens({
        token: env.OPS_API_TOKEN,
        namedTokens: parseNamedTokens(env.OPS_API_TOKENS ?? ''),
        insecure: env.OPS_API_INSECURE,
      }),
    );
  }

  static forRoot(options: OperatorAuthOptions): DynamicModule {
    const tokens = resolveOperatorTokens(options); // fail at wiring time, not at bootstrap
    return OperatorAuthModule.withTokens([], () => tokens);
  }

  private static withTokens(
    inject: Array<abstract new () => HttpEnv>,
    tokens: (env: HttpEnv) => OperatorTokens | null,
  ): DynamicModule {
    return {
      module: OperatorAuthModule,
      providers: [
        {
          provide: APP_GUARD,
          inject: [Reflector, ...inject],
          useFactory: (reflector: Reflector, env: HttpEnv) => {
            const resolved = tokens(env);
            if (resolved === null) {
              new Logger('OperatorAuth').warn(
                'OPS_API_INSECURE=true: every operator route (outbox, inbox, ledger, fulfillments, timelines, /ops, /metrics) is open without a token',
              );
            }
            return new OperatorAuthGuard(reflector, resolved);
          },
        },
      ],
    };
  }
}

/** The tokens to check, or null when the operator routes are knowingly open. */
function resolveOperatorTokens(auth: OperatorAuthOptions): OperatorTokens | null {
  const named = auth.namedTokens ?? [];
  if (auth.token !== undefined || named.length > 0) {
    return new OperatorTokens([
      ...(auth.token === undefined ? [] : [{ name: DEFAULT_OPERATOR_NAME, token: auth.token }]),
      ...named,
    ]);
  }
  if (auth.insecure === true) return null;
  throw new Error(
    'OperatorAuthModule: the operator routes need a token (OPS_API_TOKEN or OPS_API_TOKENS) unless OPS_API_INSECURE=true',
  );
}
