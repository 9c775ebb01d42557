/**
 * Deterministic randomness for the Polar simulator: every value is derived from a string key
 * (user, data kind, day), so the same user and day always produce the same data, whatever
 * "today" is and in whatever order days are asked for.
 */

/** 32-bit FNV-1a hash of a string. */
export function hash32(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** A small seeded generator (mulberry32) with the helpers the data generators need. */
export class Rng {
  #state: number

  constructor(seed: number | string) {
    this.#state = typeof seed === 'string' ? hash32(seed) : seed >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next()
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return Math.floor(this.range(min, max + 1))
  }

  /** Normal deviate (Box–Muller). */
  normal(mean = 0, sd = 1): number {
    const u = Math.max(this.next(), 1e-12)
    const v = this.next()
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]
  }
}

/** Generator for one user, data kind and day. */
export function rngFor(userKey: string, kind: string, day: number | string): Rng {
  return new Rng(`${userKey}|${kind}|${day}`)
}

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'

/** Polar-style hashed id (8 base-62 characters) derived from a key. */
export function hashedId(key: string): string {
  const rng = new Rng(key)
  let out = ''
  for (let i = 0; i < 8; i++) out += BASE62[Math.floor(rng.next() * 62)]
  return out
}

/** Clamps a number into [min, max]. */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}

/** Rounds to `decimals` places. */
export function round(value: number, decimals = 0): number {
  const f = 10 ** decimals
  return Math.round(value * f) / f
}
