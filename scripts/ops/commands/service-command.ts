import { Injectable } from '@nestjs/common';
import { Option } from 'nest-commander';
import { Confirmation } from '../confirm';
import { EXIT, invalidArgument, UsageError } from '../ops-errors';
import { OpsHttp } from '../ops-http';
import { renderAnswer } from '../render-answer';
import {
  OpsPart,
  resolveService,
  SERVICE_NAMES,
  servicesWith,
  ServiceTarget,
} from '../service-target';
import { OpsCommand } from './ops-command';

/** Options every subcommand takes. */
export interface ServiceOptions {
  service: ServiceTarget;
  yes?: boolean;
  json?: boolean;
}

/**
 * Base of the subcommands that call one service's ops API: the required --service option (a
 * name or a URL), tables on stdout (`--json`: the answer as it came), a clear answer when the
 * service runs no inbox or no outbox, and exit codes (0 done, 1 refused or failed, 64 bad
 * command line).
 */
@Injectable()
export abstract class ServiceCommand<O extends ServiceOptions = ServiceOptions> extends OpsCommand {
  constructor(
    protected readonly http: OpsHttp,
    protected readonly confirmation: Confirmation,
  ) {
    super();
  }

  @Option({
    flags: '-s, --service <name|url>',
    description: `the service: ${SERVICE_NAMES.join(', ')} (at $ORDER_SERVICE_URL, ... or 127.0.0.1 on the stack's ports) or a base URL, e.g. http://127.0.0.1:3001`,
    required: true,
  })
  parseService(value: string): ServiceTarget {
    const target = resolveService(value);
    if (!target) {
      throw invalidArgument(
        `must be ${SERVICE_NAMES.join(', ')} or an http(s) URL, e.g. http://127.0.0.1:3001`,
      );
    }
    return target;
  }

  @Option({ flags: '--json', description: 'print the answer as JSON, for scripts' })
  parseJson(): boolean {
    return true;
  }

  abstract override run(params: string[], options: O): Promise<void>;

  /**
   * GET or POST `path` on the service, print the answer (a table, or JSON with --json), and
   * fail on HTTP errors. A path under /inbox or /outbox on a service that runs no such part is
   * refused before the call when the service is named, and explained when a URL answers 404.
   */
  protected async callAndPrint(
    options: ServiceOptions,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<void> {
    const part = /^\/(inbox|outbox)\//.exec(path)?.[1] as OpsPart | undefined;
    const { service: target } = options;
    if (part && target.parts && !target.parts.includes(part)) {
      throw new UsageError(lacks(target.service ?? target.url, part));
    }
    const url = `${target.url}${path}`;
    const { status, body: answer } = await this.http.call(method, url, body);
    if (part && status === 404 && /^Cannot (GET|POST) /.test(messageOf(answer))) {
      process.stderr.write(`${lacks(target.url, part)}\n`);
      process.exitCode = EXIT.failed;
      return;
    }
    const text = options.json
      ? JSON.stringify(answer, null, 2)
      : renderAnswer(method, path, answer);
    process.stdout.write(`${text}\n`);
    if (status >= 400) {
      process.stderr.write(`${method} ${url}: HTTP ${status}\n`);
      if (status === 401) {
        process.stderr.write(
          'set OPS_API_TOKEN (or OPS_API_TOKEN_FILE) to the operator token of the service\n',
        );
      }
      process.exitCode = EXIT.failed;
    }
  }

  protected describe(options: ServiceOptions): string {
    return options.service.service ?? options.service.url;
  }

  /** Asks (or checks --yes) before a destructive call; false leaves exit code 1. */
  protected async confirmed(options: ServiceOptions, action: string): Promise<boolean> {
    if (await this.confirmation.confirm(`${action} on ${this.describe(options)}`, options.yes)) {
      return true;
    }
    process.stderr.write('not confirmed: nothing was changed\n');
    process.exitCode = EXIT.failed;
    return false;
  }
}

/** Adds one value to a repeatable option's list. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** "order-service has no inbox (the inbox runs in fulfillment-service, accounting-service)". */
function lacks(service: string, part: OpsPart): string {
  return `${service} has no ${part} (the ${part} runs in ${servicesWith(part).join(', ')})`;
}

function messageOf(answer: unknown): string {
  const message = (answer as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
}
