import { DynamicModule, ForwardReference, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { Test } from '@nestjs/testing';
import { openApiDocument } from '@app/service-bootstrap';
import { AccountingServiceModule } from '../../apps/accounting-service/src/accounting-service.module';
import { CouponProviderModule } from '../../apps/coupon-provider/src/coupon-provider.module';
import { FulfillmentServiceModule } from '../../apps/fulfillment-service/src/fulfillment-service.module';
import { OrderServiceModule } from '../../apps/order-service/src/order-service.module';

/**
 * Every operator route of every service (a route that needs the operator token: not marked
 * @PublicRoute(), whose security is `[{}]`) says in its OpenAPI document what it does: a
 * summary and a description. The document is generated from each service's own module tree, as
 * /docs-json serves it, with the controllers' dependencies mocked (nothing connects anywhere).
 */

type Import = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

/** The controllers a module mounts, its imports' included, as Nest would find them. */
async function controllersOf(root: Import, seen = new Set<unknown>()): Promise<Type[]> {
  const module = await root;
  if (!module || seen.has(module) || 'forwardRef' in module) return [];
  seen.add(module);
  const dynamic = 'module' in module ? module : undefined;
  const type = dynamic ? dynamic.module : (module as Type);
  const own = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, type) ?? []) as Type[];
  const imports = [
    ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, type) ?? []) as Import[]),
    ...((dynamic?.imports ?? []) as Import[]),
  ];
  const found = [...own, ...((dynamic?.controllers ?? []) as Type[])];
  for (const child of imports) found.push(...(await controllersOf(child, seen)));
  return [...new Set(found)];
}

interface Operation {
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
}

const SERVICES: Array<[string, DynamicModule | Type]> = [
  ['order-service', OrderServiceModule.forRoot()],
  ['fulfillment-service', FulfillmentServiceModule.forRoot()],
  ['accounting-service', AccountingServiceModule.forRoot()],
  ['coupon-provider', CouponProviderModule],
];

describe.each(SERVICES)('the OpenAPI document of the %s', (title, serviceModule) => {
  it('gives every operator route a summary and a description', async () => {
    const controllers = await controllersOf(serviceModule);
    const moduleRef = await Test.createTestingModule({ controllers })
      .useMocker(() => ({}))
      .compile();
    const app = moduleRef.createNestApplication({ logger: false });
    const document = openApiDocument(app, { title });
    await app.close();

    const operator: string[] = [];
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations as Record<string, Operation>)) {
        const isPublic = operation.security?.some((s) => Object.keys(s).length === 0) ?? false;
        if (isPublic) continue;
        const route = `${method.toUpperCase()} ${path}`;
        operator.push(route);
        if (!operation.summary?.trim() || !operation.description?.trim()) missing.push(route);
      }
    }
    // The walk found the routes (the metrics route is in every service).
    expect(operator).toContain('GET /metrics');
    expect(missing).toEqual([]);
  });
});
