import argon2 from 'argon2';

/**
 * argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes) in production.
 * ARGON2_MEMORY_COST_KIB lowers the memory cost for test runs only, where hundreds of
 * sign-ups would otherwise spend most of the suite's time hashing. Never set it in production.
 */
function options(): argon2.HashOptions {
  const memoryCost = Number(process.env.ARGON2_MEMORY_COST_KIB);
  return Number.isInteger(memoryCost) && memoryCost >= 1024
    ? { type: argon2.argon2id, memoryCost }
    : { type: argon2.argon2id };
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, options());
}

export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return argon2.verify(hash, password);
}

/** True when `hash` was made with other parameters than today's (then it is rehashed on sign-in). */
export function needsRehash(hash: string): boolean {
  return argon2.needsRehash(hash, options());
}

// A hash of nothing anyone knows: checking an unknown email against it costs the same time as
// checking a real account, so response times do not reveal which emails are registered.
let decoy: Promise<string> | undefined;
export async function spendVerifyTime(password: string): Promise<void> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  await argon2.verify(await decoy, password);
}
