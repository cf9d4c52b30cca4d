/** SQL of the claim's two reads, so a test can EXPLAIN it against its own data. */
export { CLAIM_DUE_NEW_SQL, CLAIM_EXPIRED_SQL } from '../outbox-claimer';
