/** Issue 35: the inbox consumer's rate, at least this many times the bare kafkajs consumer's. */
export const BARE_RATE_TARGET = 0.9;
/** Issue 35: its Node CPU per event, at most this many times the bare kafkajs consumer's. */
export const BARE_CPU_TARGET = 1.15;
