/** What the console reads of a dead letter (GET /inbox/dead-letters of a consumer). */
export interface DeadLetterView {
  partition: number;
  offset: string;
  /** When it was last replayed; null if never (or unknown, when the database was down). */
  replayedAt: string | null;
}

/**
 * The dead letters that still need a person: those never replayed. A replayed one that was
 * applied needs nothing more; a replayed one that failed again is dead-lettered again, as a new
 * dead letter that was never replayed, and counts through that one.
 */
export function deadLettersToHandle(letters: DeadLetterView[]): number {
  return letters.filter((letter) => letter.replayedAt === null).length;
}
