import { Injectable } from '@nestjs/common';
import { Option } from 'nest-commander';
import { Confirmation } from '../confirm';
import { EXIT, invalidArgument } from '../ops-errors';
import { OpsHttp } from '../ops-http';
import { OpsCommand } from './ops-command';

/** Options every subcommand takes. */
export interface ServiceOptions {
  service: string;
  yes?: boolean;
}

/**
 * Base of the subcommands that call one service's ops API: the required --service option,
 * JSON output on stdout, and exit codes (0 done, 1 refused or failed, 64 bad command line).
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
    flags: '-s, --service <url>',
    description: 'base URL of the service, e.g. http://127.0.0.1:3001',
    required: true,
  })
  parseService(value: string): string {
    if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(value)) {
      throw invalidArgument('must be an http(s) URL, e.g. http://127.0.0.1:3001');
    }
    return value.replace(/\/+$/, '');
  }

  abstract override run(params: string[], options: O): Promise<void>;

  /** GET or POST `path` on the service, print the JSON answer, and fail on HTTP errors. */
  protected async callAndPrint(
    options: ServiceOptions,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<void> {
    const url = `${options.service}${path}`;
    const { status, body: answer } = await this.http.call(method, url, body);
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    if (status >= 400) {
      process.stderr.write(`${method} ${url}: HTTP ${status}\n`);
      if (status === 401) {
        process.stderr.write('set OPS_API_TOKEN to the operator token of the service\n');
      }
      process.exitCode = EXIT.failed;
    }
  }

  /** Asks (or checks --yes) before a destructive call; false leaves exit code 1. */
  protected async confirmed(options: ServiceOptions, action: string): Promise<boolean> {
    if (await this.confirmation.confirm(`${action} on ${options.service}`, options.yes)) {
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
