import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkModel

/// The signed-in start page: the week so far, a four-week calendar, friends' recent shared
/// workouts and, for a new account, what to do next. Days are cut in the user's time zone.
struct WebDashboard {
    let services: HeartworkServices

    func model(for user: UserRecord, now: Date = Date()) async throws -> DashboardPage {
        let zone = TimeZones.zone(user.timeZone)
        let offset = zone.secondsFromGMT(for: now)
        let today = CalendarDay(now, utcOffsetSeconds: offset)
        let weekStart = today.adding(days: -6)
        // Four whole weeks, Monday to Sunday, ending with this one.
        let weekday = ((today.daysSinceEpoch + 3) % 7 + 7) % 7  // 0 = Monday (1970-01-01 was a Thursday)
        let calendarStart = today.adding(days: -weekday - 21)
        let recent = try await services.workouts.all(for: user, from: calendarStart.start(utcOffsetSeconds: offset), to: now.addingTimeInterval(86_400))
        let week = recent.filter { $0.startedAt >= weekStart.start(utcOffsetSeconds: offset) }
        // The week.
        let seconds = week.reduce(0) { $0 + $1.metrics.durationSeconds }
        let meters = week.compactMap(\.metrics.distanceMeters).reduce(0, +)
        // Energy needs weight, age and sex (Keytel); "–" rather than a false 0 when no workout has it.
        let energies = week.compactMap(\.metrics.kilocalories)
        let kilocalories: Double? = energies.isEmpty ? nil : energies.reduce(0, +)
        var zoneSeconds = [0, 0, 0, 0, 0]
        for workout in week { for (index, value) in (workout.metrics.secondsInZones ?? []).enumerated() where index < 5 { zoneSeconds[index] += value } }
        let zoneTotal = max(1, zoneSeconds.reduce(0, +))
        var model = DashboardPage(
            firstName: String(user.fullName.split(separator: " ").first ?? Substring(user.fullName)),
            week: .init(
                count: week.count, duration: Formatting.duration(seconds), distance: Formatting.distance(meters, units: user.units),
                calories: Formatting.number(kilocalories, unit: "kcal"), caloriesUnknown: kilocalories == nil && !week.isEmpty,
                from: Formatting.day(weekStart), to: Formatting.day(today)),
            weekEmpty: week.isEmpty,
            zones: ReserveZone.allCases.map { zone in
                .init(
                    name: zone.label, class: "zone-\(zone.identifier)", time: Formatting.duration(zoneSeconds[zone.rawValue]),
                    percent: Int((100 * Double(zoneSeconds[zone.rawValue]) / Double(zoneTotal)).rounded()))
            },
            hasZoneTime: zoneSeconds.reduce(0, +) > 0,
            zoneBar: Self.zoneBar(zoneSeconds))

        // Four weeks of days, oldest first, in rows of seven.
        var byDay = [CalendarDay: [WorkoutRecord]]()
        for workout in recent {
            byDay[CalendarDay(workout.startedAt, utcOffsetSeconds: zone.secondsFromGMT(for: workout.startedAt)), default: []].append(workout)
        }
        model.calendar = (0..<4).map { row in
            .init(
                days: (0..<7).map { column -> DashboardPage.Day in
                    let day = calendarStart.adding(days: row * 7 + column)
                    let workouts = (byDay[day] ?? []).sorted { $0.startedAt < $1.startedAt }
                    return .init(
                        day: day.day, label: Formatting.day(day), today: day == today, hasWorkouts: !workouts.isEmpty,
                        workouts: workouts.map { .init(id: $0.id, sport: $0.sport.rawValue.capitalized, initial: String($0.sport.rawValue.prefix(1)).uppercased()) })
                })
        }

        // Friends' shared workouts.
        let friends = try await services.friends.friends(of: user)
        let names = Dictionary(friends.map { ($0.id, $0.fullName) }, uniquingKeysWith: { first, _ in first })
        let feed = try await services.workouts.friendsFeed(for: user, limit: 10)
        model.feed = feed.map { workout -> WorkoutRow in
            var row = WebWorkoutPages.row(workout, user: user)
            row.ownerName = names[workout.userID] ?? "A friend"
            row.ownerID = workout.userID
            return row
        }
        model.hasFeed = !feed.isEmpty
        model.hasFriends = !friends.isEmpty

        // What a new account does next.
        let profile = try await services.profiles.profile(of: user, now: now)
        let workoutCount = try await services.workouts.count(for: user)
        let steps: [DashboardPage.Step] = [
            .init(text: "Add your date of birth", href: "/profile#dateOfBirth", done: user.dateOfBirth != nil),
            .init(text: "Add your resting heart rate", href: "/profile#bpm", done: profile.restingHeartRate != nil),
            .init(text: "Upload your first workout", href: "/workouts/upload", done: workoutCount > 0),
            .init(text: "Find a friend to compare with", href: "/friends", done: !friends.isEmpty),
        ]
        model.steps = steps
        // A coach's account: the teams first, and the personal steps only once they have begun
        // (a coach who does not train with Heartwork is not asked for a birth date).
        let teams = try await services.teams.teams(of: user)
        let players = teams.isEmpty ? [] : try await services.teams.players(of: user)
        model.teams = teams.map { team -> DashboardPage.Team in
            let count = players.filter { $0.teamID == team.id }.count
            return .init(id: team.id, name: team.name, players: "\(count) player\(count == 1 ? "" : "s")")
        }
        model.hasTeams = !teams.isEmpty
        model.showSteps = steps.contains { !$0.done } && (teams.isEmpty || workoutCount > 0)
        model.hasZones = profile.zoneProfile != nil
        return model
    }

    /// One bar split by time in each zone (SVG: the page's style policy allows no inline styles).
    static func zoneBar(_ seconds: [Int]) -> String {
        let total = Double(max(1, seconds.reduce(0, +)))
        var x = 0.0
        var rects = ""
        for zone in ReserveZone.allCases {
            let width = 1000 * Double(seconds[zone.rawValue]) / total
            guard width > 0 else { continue }
            rects += "<rect x=\"\(Int(x))\" y=\"0\" width=\"\(Int(width.rounded(.up)))\" height=\"24\" fill=\"\(Palette.reserveZones[zone.rawValue])\"/>"
            x += width
        }
        let label = ReserveZone.allCases.map { "\($0.label) \(Formatting.duration(seconds[$0.rawValue]))" }.joined(separator: ", ")
        return "<svg class=\"zone-bar\" viewBox=\"0 0 1000 24\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"Time in zones this week: \(label)\">\(rects)</svg>"
    }
}
