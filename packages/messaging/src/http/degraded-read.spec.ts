import {
  Controller,
  Get,
  INestApplication,
  NotFoundException,
  Param,
  SetMetadata,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DegradedRead } from './degraded-read';
import { operatorControllers } from './operator-routes';

/** A store whose database is down: every read is refused as mysql2 refuses it. */
class DownStore {
  read(): Promise<never> {
    return Promise.reject(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' }),
    );
  }
}

@Controller('things')
class ThingsController {
  private readonly counters = { applied: 7 };
  private readonly store = new DownStore();

  @Get('stats')
  @DegradedRead((c: ThingsController) => ({ sinceStart: c.counters }))
  @SetMetadata('summary', 'stats') // applied before DegradedRead wraps the method
  stats(): Promise<unknown> {
    return this.store.read();
  }

  @Get('list/:id')
  @DegradedRead()
  list(@Param('id') id: string): Promise<unknown> {
    if (id === 'none') throw new NotFoundException('no such thing');
    return this.store.read();
  }
}

describe('DegradedRead', () => {
  let app: INestApplication;
  let base: string;
  beforeAll(async () => {
    // Extended with guards, as a module mounts its operator controllers behind `{ guards }`.
    const controllers = operatorControllers([ThingsController], {
      guards: [{ canActivate: () => true }],
    });
    const moduleRef = await Test.createTestingModule({ controllers }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });
  afterAll(() => app.close());

  it('answers 503 with the cause and what the controller knows, when the database is down', async () => {
    const response = await fetch(`${base}/things/stats`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'answered from memory: a dependency is unreachable (ECONNREFUSED)',
      degraded: {
        cause: {
          code: 'ECONNREFUSED',
          message: 'connect ECONNREFUSED 127.0.0.1:3306',
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        },
      },
      sinceStart: { applied: 7 },
    });
  });

  it('answers 503 with the cause alone for a route that knows nothing without its store', async () => {
    const response = await fetch(`${base}/things/list/7`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as { degraded: { cause: { code: string } } };
    expect(body.degraded.cause.code).toBe('ECONNREFUSED');
    expect(Object.keys(body).sort()).toEqual(['degraded', 'error', 'message', 'statusCode']);
  });

  it("keeps the route's parameters, and its HTTP errors as they are", async () => {
    const response = await fetch(`${base}/things/list/none`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ message: 'no such thing' });
  });

  it("keeps the metadata set on the route before it was wrapped (Swagger's, say)", () => {
    expect(Reflect.getMetadata('summary', ThingsController.prototype.stats)).toBe('stats');
  });
});
