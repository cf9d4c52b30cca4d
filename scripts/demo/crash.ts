import type { ServiceProcess } from '../stack/service-process';
import { DemoSettings, opsHeaders } from './demo-settings';
import { requestJson } from './http-json';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Crashes a consumer the hard way (SIGKILL) once it has applied some events, and starts it
 * again: whatever it had applied but not yet committed as offsets, Kafka delivers again.
 */
export async function crashAndRestart(
  settings: DemoSettings,
  consumer: ServiceProcess,
  afterEffects = 5,
): Promise<string> {
  const url = consumer.url;
  let applied = 0;
  for (let polls = 0; applied < afterEffects && polls < 600; polls++) {
    const { status, body } = await requestJson<{ sinceStart: { applied: number } }>(
      `${url}/inbox/stats`,
      { headers: opsHeaders(settings) },
    );
    if (status === 200) applied = body.sinceStart.applied;
    if (applied < afterEffects) await sleep(20);
  }
  await consumer.stop('SIGKILL');
  consumer.start();
  await consumer.waitHealthy();
  return `${consumer.spec.name} was SIGKILLed after applying ${applied} events, and restarted`;
}
