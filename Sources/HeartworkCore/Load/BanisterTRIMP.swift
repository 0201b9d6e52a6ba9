import Foundation

/// Banister's training impulse (TRIMP): minutes of exercise weighted by the fraction of heart
/// rate reserve and by an exponential that stands for the rise of blood lactate with effort.
///
///     TRIMP = Σ Δt[min] · HRr · k · e^(b · HRr),   HRr = (HR − HRrest) / (HRmax − HRrest)
///
/// with k = 0.64, b = 1.92 for men and k = 0.86, b = 1.67 for women (Banister 1991, "Modeling
/// human performance in running"; the constants as Morton, Fitz-Clarke & Banister, J Appl
/// Physiol 69:1171, 1990). HRr is clamped to 0…1, so a reading below rest adds nothing and a
/// reading above the maximum counts as the maximum. Heartwork uses the men's constants when
/// the sex is not known (Banister's original subjects were men) and says so on the review.
public struct BanisterTRIMP: Sendable, Hashable {
    public let profile: ZoneProfile
    public let k: Double
    public let b: Double

    public init(profile: ZoneProfile, sex: Sex?) {
        self.profile = profile
        switch sex {
        case .female: (k, b) = (0.86, 1.67)
        case .male, nil: (k, b) = (0.64, 1.92)
        }
    }

    /// The fraction of heart-rate reserve, clamped to 0…1.
    public func reserveFraction(beatsPerMinute bpm: Double) -> Double {
        guard bpm.isFinite else { return 0 }
        return min(1, max(0, (bpm - profile.restingHeartRate) / profile.heartRateReserve))
    }

    /// The TRIMP of `seconds` spent at `bpm`.
    public func impulse(beatsPerMinute bpm: Double, seconds: Double) -> Double {
        guard seconds > 0, seconds.isFinite else { return 0 }
        let fraction = reserveFraction(beatsPerMinute: bpm)
        return seconds / 60 * fraction * k * exp(b * fraction)
    }
}
