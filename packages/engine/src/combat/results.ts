/** 7.2 Combat results: what each CRT code does, as data the phase machine acts on. */
import type { CombatResult } from '../model/combat.ts';

export type ResultEffect =
  | { readonly kind: 'eliminate'; readonly side: 'attacker' | 'defender' }
  | { readonly kind: 'retreat'; readonly side: 'attacker' | 'defender'; readonly distance: 1 | 2 | 3 }
  | { readonly kind: 'exchange' };

/** 7.2: the effect of a result code. */
export function resultEffect(result: CombatResult): ResultEffect {
  switch (result) {
    case 'DE':
      return { kind: 'eliminate', side: 'defender' };
    case 'AE':
      return { kind: 'eliminate', side: 'attacker' };
    case 'EX':
      return { kind: 'exchange' };
    case 'DR1':
    case 'DR2':
    case 'DR3':
      return { kind: 'retreat', side: 'defender', distance: Number(result[2]) as 1 | 2 | 3 };
    case 'AR1':
    case 'AR2':
    case 'AR3':
      return { kind: 'retreat', side: 'attacker', distance: Number(result[2]) as 1 | 2 | 3 };
  }
}
