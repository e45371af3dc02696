package cogs.runtime

import java.util.concurrent.atomic.AtomicInteger

/**
 * What a runtime does when a COG goes idle while a hook is installed, instead of uncounting it
 * and, at zero, becoming quiescent: the runtime's idle path knows this interface, not the
 * simulated clock behind it (docs/runtime-design.md, section 7). The clock ([[SimClock]]) is
 * today's only hook: the last COG to go idle keeps its count as a token and advances time. A
 * cluster-wide clock (issue 30) would be another, deciding with the other nodes first.
 *
 * The contract, which [[CogRuntime]]'s counting relies on: `idle` is called once per COG going
 * idle (or once per held count, see `CogRuntime.cogsIdle`), takes exactly one count off `active`
 * before it returns, or keeps it while it does something that counts other COGs active first,
 * and returns true if it brought `active` to zero (the runtime is then quiescent).
 */
private[runtime] trait QuiescenceHook {
  def idle(active: AtomicInteger): Boolean
}
