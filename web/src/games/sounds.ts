// Sounds of a game: a move, a capture, a tuz, the end, a tournament's next game, and a warning
// when the player's own clock runs low. Made with the Web Audio API (short tones, no files to
// fetch); off while the setting "sound" is (shell/prefs.ts: the header's sound button, the
// account page). Which sound a change calls for is decided
// by the pure functions below.

import type { GameState, Side } from "../protocol/types.js";
import { pref } from "../shell/prefs.js";

export type SoundKind = "move" | "capture" | "tuz" | "low" | "end" | "start";

/** The clock's warning: once when the player's own time falls under this. */
export const LOW_TIME_MS = 10_000;

/** The sound for a new state after `prev`: the game's end, else the move just made (a tuz, a
 * capture, a plain move); null for anything else (a first state, a sync, an offer). */
export function sound_of_state(prev: GameState | null, g: GameState): SoundKind | null {
  if (!prev || prev.id !== g.id) return null;
  if (g.status === "over" && prev.status !== "over") return "end";
  if (g.ply !== prev.ply + 1 || g.moves.length === 0) return null;
  const mv = g.moves[g.moves.length - 1];
  if (mv.tuz) return "tuz";
  return mv.captured > 0 ? "capture" : "move";
}

/** Whether a clock that showed `was_ms` and now shows `now_ms` has just passed the warning. */
export function low_time_crossed(was_ms: number | null, now_ms: number): boolean {
  return was_ms !== null && was_ms >= LOW_TIME_MS && now_ms < LOW_TIME_MS;
}

// frequency (Hz), length (ms) of each note of a sound
const NOTES: Record<SoundKind, [number, number][]> = {
  move: [[440, 60]],
  capture: [[523, 60], [659, 80]],
  tuz: [[523, 70], [659, 70], [784, 120]],
  low: [[880, 90], [880, 90]],
  end: [[392, 120], [523, 200]],
  start: [[523, 90], [784, 90], [1047, 160]], // a new game has started for the player
};

let audio: AudioContext | null = null;

/** Plays `kind` unless sound is off; test builds also note it in window.__toguz_sounds. */
export function play_sound(kind: SoundKind): void {
  if (!pref("sound")) return;
  if (__TOGUZ_TEST_HOOKS__) ((window as any).__toguz_sounds ??= []).push(kind);
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") void audio.resume();
    let at = audio.currentTime;
    for (const [hz, ms] of NOTES[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + ms / 1000);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + ms / 1000);
      at += ms / 1000 + 0.02;
    }
  } catch {
    // no audio here: the game goes on silently
  }
}

/** What a game page keeps to sound the low-time warning once per crossing. */
export class GameSounds {
  private shown: { side: Side; ms: number } | null = null;

  on_state(prev: GameState | null, g: GameState): void {
    const kind = sound_of_state(prev, g);
    if (kind) play_sound(kind);
  }

  /** The running clock as drawn: warns when it is the player's own and passes the mark. */
  on_clock(side: Side, ms: number, you: GameState["you"]): void {
    const was = this.shown && this.shown.side === side ? this.shown.ms : null;
    this.shown = { side, ms };
    if (you === side && low_time_crossed(was, ms)) play_sound("low");
  }
}
