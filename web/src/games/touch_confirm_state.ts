// Move confirmation on touch screens (an optional setting, off by default): with it on, a tap
// on a legal hole only selects it, and a second tap on the same hole makes the move, so a
// stray touch never plays. The page applies it only where the main pointer is coarse (a
// touch screen); mouse and keyboard play at once. The setting is "confirm_touch"
// (shell/prefs.ts).

/** A tap on legal hole `hole` with confirmation on, `pending` the hole selected before (null:
 * none): the same hole again plays it, another one is selected instead. */
export function confirm_tap(pending: number | null, hole: number): { play: number | null; pending: number | null } {
  return pending === hole ? { play: hole, pending: null } : { play: null, pending: hole };
}
