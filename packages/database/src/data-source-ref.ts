import { InjectionToken, Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Which TypeORM DataSource a library module works on: the instance itself, the name given to
 * `TypeOrmModule.forRoot({ name })`, or the injection token of a provider that yields one
 * (visible to the module: from a global module, as TypeOrmModule's are). Default: the app's
 * default DataSource.
 */
export type DataSourceRef = DataSource | string | Exclude<InjectionToken, string>;

/** A provider of `provide` that is the DataSource `ref` names. */
export function dataSourceProvider(provide: symbol, ref?: DataSourceRef): Provider {
  if (ref instanceof DataSource) return { provide, useValue: ref };
  const token =
    ref === undefined ? DataSource : typeof ref === 'string' ? getDataSourceToken(ref) : ref;
  return { provide, useExisting: token };
}
