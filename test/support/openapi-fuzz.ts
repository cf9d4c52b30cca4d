/**
 * Requests derived from a service's OpenAPI document: for every operation, its documented path
 * parameters, query parameters, headers and JSON body, each replaced in turn by values of the
 * wrong type, out of range, too long, unicode, huge numbers, missing or extra. Nothing here
 * knows a route by name: a route added to a service is fuzzed as soon as it is documented.
 */

/** The parts of an OpenAPI 3 document the fuzzer reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface OpenApiOperation {
  parameters?: Array<{
    name: string;
    in: 'path' | 'query' | 'header';
    required?: boolean;
    schema?: Schema;
  }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: Array<Record<string, string[]>>;
}

export interface Schema {
  $ref?: string;
  type?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

/** One documented operation: `GET /outbox/dead`. */
export interface Route {
  method: string;
  /** OpenAPI form, `/orders/{id}/timeline`. */
  path: string;
  operation: OpenApiOperation;
  /** Open without the operator token (security `[{}]`). */
  isPublic: boolean;
}

/** One request the fuzzer sends. */
export interface FuzzRequest {
  route: Route;
  /** What was mutated, for failure messages. */
  label: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** Every operation of a document. */
export function routesOf(document: OpenApiDocument): Route[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      operation,
      isPublic: JSON.stringify(operation.security) === '[{}]',
    })),
  );
}

/** Path segments and query values that are wrong in some way (already URL-encoded). */
const BAD_STRINGS = [
  '',
  '0',
  '-1',
  '1.5',
  'abc',
  '9'.repeat(40),
  '1e309',
  'NaN',
  'a'.repeat(300),
  encodeURIComponent('😀ü€'),
  '%00',
  encodeURIComponent("1' OR '1'='1"),
  encodeURIComponent('../../etc/passwd'),
  encodeURIComponent('\u202e'),
];

/** JSON values of every kind, most of them wrong for any one field. */
const BAD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53 + 1,
  1e308,
  -1e308,
  '',
  'x',
  'a'.repeat(5_000),
  '😀\u0000ü',
  '1e999',
  ['a', 1],
  [],
  {},
  { $gt: '' },
];

/**
 * The requests for one route: a plausible valid one, then one mutation at a time of each
 * documented path parameter, query parameter, header and body field, plus unknown fields,
 * malformed JSON and an oversized body. `token` is added as a bearer token when given.
 */
export function requestsFor(
  baseUrl: string,
  route: Route,
  document: OpenApiDocument,
  token?: string,
): FuzzRequest[] {
  const params = route.operation.parameters ?? [];
  const valid = {
    path: Object.fromEntries(
      params
        .filter((p) => p.in === 'path')
        .map((p) => [p.name, encodeURIComponent(String(validValue(p.schema, document) ?? '1'))]),
    ),
    query: params
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => [p.name, String(validValue(p.schema, document) ?? '1')] as [string, string]),
    headers: Object.fromEntries(
      params.filter((p) => p.in === 'header' && p.required).map((p) => [p.name, 'fuzz-1']),
    ),
  };
  const bodySchema = resolve(
    route.operation.requestBody?.content?.['application/json']?.schema,
    document,
  );
  const validBody = bodySchema ? validValue(bodySchema, document) : undefined;
  const sends = route.method !== 'GET';

  const make = (
    label: string,
    parts: {
      path?: Record<string, string>;
      query?: Array<[string, string]> | string;
      headers?: Record<string, string>;
      body?: string | null;
    } = {},
  ): FuzzRequest => {
    const pathValues = { ...valid.path, ...parts.path };
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => pathValues[name]);
    const query =
      typeof parts.query === 'string'
        ? parts.query
        : (parts.query ?? valid.query).map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
    const body =
      parts.body === null
        ? undefined
        : (parts.body ?? (sends ? JSON.stringify(validBody ?? {}) : undefined));
    return {
      route,
      label,
      url: `${baseUrl}${path}${query ? `?${query}` : ''}`,
      method: route.method,
      headers: {
        'content-type': 'application/json',
        ...valid.headers,
        ...parts.headers,
        ...(token !== undefined && { authorization: `Bearer ${token}` }),
      },
      body,
    };
  };

  const requests: FuzzRequest[] = [make('valid')];
  for (const param of params) {
    if (param.in === 'path') {
      for (const bad of BAD_STRINGS.filter(Boolean)) {
        requests.push(
          make(`path ${param.name}=${bad.slice(0, 20)}`, { path: { [param.name]: bad } }),
        );
      }
    } else if (param.in === 'query') {
      const others = valid.query.filter(([k]) => k !== param.name);
      for (const bad of BAD_STRINGS) {
        requests.push(
          make(`query ${param.name}=${bad.slice(0, 20)}`, {
            query: [...others, [param.name, bad]],
          }),
        );
      }
      requests.push(
        make(`query ${param.name}[]`, { query: [...others, [`${param.name}[]`, '1']] }),
      );
      requests.push(
        make(`query ${param.name}[a]`, { query: [...others, [`${param.name}[a]`, '1']] }),
      );
      requests.push(
        make(`query ${param.name} twice`, {
          query: [...others, [param.name, '1'], [param.name, '2']],
        }),
      );
    } else if (param.in === 'header') {
      for (const bad of ['', 'x', 'a'.repeat(300), '1e309', ' ']) {
        requests.push(
          make(`header ${param.name}=${bad.slice(0, 20)}`, { headers: { [param.name]: bad } }),
        );
      }
    }
  }
  requests.push(make('unknown query field', { query: [...valid.query, ['zzUnknown', '1']] }));
  if (!sends) return requests;

  requests.push(make('no body', { body: null }));
  for (const raw of [
    'not json',
    '{"a":',
    '[]',
    'null',
    '"x"',
    '12',
    '{}',
    '[[[[[[[[[[[[]]]]]]]]]]]]',
  ]) {
    requests.push(make(`body ${raw.slice(0, 12)}`, { body: raw }));
  }
  requests.push(make('body over 16 kB', { body: JSON.stringify({ pad: 'x'.repeat(17_000) }) }));
  requests.push(
    make('body with __proto__', { body: '{"__proto__":{"polluted":1},"constructor":{}}' }),
  );
  if (validBody && typeof validBody === 'object' && !Array.isArray(validBody)) {
    const base = validBody as Record<string, unknown>;
    requests.push(make('extra body field', { body: JSON.stringify({ ...base, zzUnknown: 1 }) }));
    for (const field of Object.keys(bodySchema?.properties ?? {})) {
      const { [field]: _removed, ...without } = base;
      requests.push(make(`body without ${field}`, { body: JSON.stringify(without) }));
      for (const bad of BAD_VALUES) {
        const label = `body ${field}=${JSON.stringify(bad)?.slice(0, 20)}`;
        requests.push(make(label, { body: JSON.stringify({ ...base, [field]: bad }) }));
      }
    }
  }
  return requests;
}

/** A value the schema accepts, from its example, default, enum or type. */
export function validValue(schema: Schema | undefined, document: OpenApiDocument): unknown {
  const s = resolve(schema, document);
  if (!s) return undefined;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  switch (s.type) {
    case 'integer':
    case 'number':
      return s.minimum ?? Math.min(1, s.maximum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [validValue(s.items, document)];
    case 'object':
    case undefined:
      return Object.fromEntries(
        Object.entries(s.properties ?? {})
          .filter(([name]) => s.required?.includes(name))
          .map(([name, property]) => [name, validValue(property, document)]),
      );
    default:
      return 'x';
  }
}

function resolve(schema: Schema | undefined, document: OpenApiDocument): Schema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return document.components?.schemas?.[name];
}
