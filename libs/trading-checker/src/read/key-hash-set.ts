/**
 * A set of strings kept as 53-bit hashes in one sorted Float64Array: 8 bytes a key, so the
 * event keys of millions of topic messages fit in tens of megabytes. Two keys share a hash
 * with odds of about n / 2^53 per lookup (a false "present"), far below anything a check of a
 * few million keys can meet.
 */
export class KeyHashSet {
  private hashes = new Float64Array(1024);
  private size = 0;
  private sorted = true;

  add(key: string): void {
    if (this.size === this.hashes.length) {
      const grown = new Float64Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[this.size++] = hash53(key);
    this.sorted = false;
  }

  /** How many keys were added more than once (extra copies). */
  duplicates(): number {
    this.sort();
    let extra = 0;
    for (let i = 1; i < this.size; i++) if (this.hashes[i] === this.hashes[i - 1]) extra += 1;
    return extra;
  }

  /** How many times `key` was added. */
  count(key: string): number {
    this.sort();
    const h = hash53(key);
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.hashes[mid] < h) lo = mid + 1;
      else hi = mid;
    }
    let n = 0;
    while (lo + n < this.size && this.hashes[lo + n] === h) n += 1;
    return n;
  }

  private sort(): void {
    if (this.sorted) return;
    this.hashes = this.hashes.slice(0, this.size).sort();
    this.sorted = true;
  }
}

/** Two 32-bit FNV-1a variants over the UTF-16 code units, folded into 53 bits. */
function hash53(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}
