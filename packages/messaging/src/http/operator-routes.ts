import { CanActivate, Type, UseGuards } from '@nestjs/common';

/** A module's operator HTTP endpoints: on (the app's global guards apply), off, or guarded. */
export type OperatorRoutes = boolean | { guards: Array<Type<CanActivate> | CanActivate> };

/**
 * The controllers a module mounts for `routes`: none when off; with `{ guards }`, each one
 * extended by a class that carries the guards (the routes and their metadata are inherited).
 */
export function operatorControllers(
  controllers: Array<Type<unknown>>,
  routes: OperatorRoutes | undefined,
): Array<Type<unknown>> {
  if (routes === false) return [];
  if (routes === undefined || routes === true || routes.guards.length === 0) return controllers;
  return controllers.map((controller) => {
    const guarded = class extends (controller as Type<object>) {};
    Object.defineProperty(guarded, 'name', { value: `Guarded${controller.name}` });
    UseGuards(...routes.guards)(guarded);
    return guarded;
  });
}
