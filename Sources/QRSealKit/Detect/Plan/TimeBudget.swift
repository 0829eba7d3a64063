/// How much CPU time detection's budgeted stages (`PassPlan.Stage.budgeted`) may spend on
/// an image before no further one starts: a safety net against a pathological input, never
/// a way to choose passes. "No limit" and "none left" are cases of their own, so that no
/// budget silently skips a stage: a limit is always more than zero.
public struct TimeBudget: Sendable, Equatable {
    private enum Kind: Sendable, Equatable {
        case unlimited, exhausted
        case cpu(milliseconds: Double)
    }
    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// Every budgeted stage the plan's gates allow starts, however long the passes took.
    public static let unlimited = TimeBudget(.unlimited)
    /// No budgeted stage starts: only the unbudgeted ones run (the quick search, the
    /// locator, the plain searches, the regions).
    public static let exhausted = TimeBudget(.exhausted)

    /// Budgeted stages start while the passes have spent less than `limit` of CPU time, on
    /// every thread together; `limit` must be more than zero (`exhausted` says none).
    public static func cpu(_ limit: Duration) -> TimeBudget {
        precondition(limit > .zero, "a time budget is more than zero; TimeBudget.exhausted runs no budgeted stage")
        let milliseconds = Double(limit.components.seconds) * 1000 + Double(limit.components.attoseconds) / 1e15
        return TimeBudget(.cpu(milliseconds: milliseconds))
    }

    /// Whether a budgeted stage may start once the passes have spent `spent` milliseconds.
    func allows(spentMilliseconds spent: Double) -> Bool {
        switch kind {
        case .unlimited: return true
        case .exhausted: return false
        case .cpu(let limit): return spent < limit
        }
    }
}
