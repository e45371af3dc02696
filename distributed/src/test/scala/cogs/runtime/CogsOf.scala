package cogs.runtime

/** Tests only: which COG and runtime an object is in (not public API). */
object CogsOf {
  def sameCog(a: Active, b: Active): Boolean = a.cog eq b.cog
  def runtimeOf(a: Active): CogRuntime = a.cog.runtime
}
