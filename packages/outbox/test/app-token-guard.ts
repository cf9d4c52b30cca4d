import {
  CanActivate,
  DynamicModule,
  ExecutionContext,
  Module,
  UnauthorizedException,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';

/** Lets a request in only with `authorization: Bearer <token>`. */
class BearerTokenGuard implements CanActivate {
  constructor(private readonly token: string) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>();
    if (request.headers.authorization === `Bearer ${this.token}`) return true;
    throw new UnauthorizedException();
  }
}

/**
 * An app's own global guard, as an adopter registers one (APP_GUARD): the package's routes,
 * mounted without guards of their own, stand behind it. The services' OperatorAuthModule is
 * such a guard; the operator-surface e2e test checks it in front of these routes.
 */
@Module({})
export class AppTokenGuardModule {
  static forRoot(token: string): DynamicModule {
    return {
      module: AppTokenGuardModule,
      providers: [{ provide: APP_GUARD, useValue: new BearerTokenGuard(token) }],
    };
  }
}
