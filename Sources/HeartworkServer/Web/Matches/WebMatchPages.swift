import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkModel
import Hummingbird

/// HeartMate in the web app: challenges and ghost races (`/matches`), a match's room and
/// result (`/matches/{id}`), and notifications (`/notifications`). The room page plays over
/// the match socket (docs/PROTOCOL.md §10) from app.js; everything else is forms.
struct WebMatchPages {
    let services: HeartworkServices
    let pages: PageRenderer

    struct ChallengeForm: Decodable { let opponent: String?, minutes: String?, practice: String? }
    struct GhostForm: Decodable { let workoutID: String? }

    func register(on router: RouterGroup<AuthenticatedContext>) {
        router.get("matches", use: getMatches)
        router.post("matches", use: postMatches)
        router.post("matches/ghost", use: postMatchesGhost)
        router.post("matches/:matchID/:answer", use: postMatchesMatchIDAnswer)
        router.get("matches/:matchID", use: getMatchesMatchID)
        router.get("notifications", use: getNotifications)
        router.post("notifications/read", use: postNotificationsRead)
    }

    /// GET /matches
    func getMatches(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await overview(request, context)
    }

    /// POST /matches
    func postMatches(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(ChallengeForm.self, from: request)
        do {
            guard let minutes = Int(form.minutes?.trimmingCharacters(in: .whitespaces) ?? "") else {
                throw AppError.invalid("a match lasts 1–120 minutes", field: "minutes")
            }
            let match = try await services.matches.invite(form.opponent ?? "", minutes: minutes, practice: form.practice != nil, by: context.user)
            return pages.redirect(to: "/matches/\(match.id)", notice: .challengeSent)
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await overview(request, context, error: error)
        }
    }

    /// POST /matches/ghost
    func postMatchesGhost(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(GhostForm.self, from: request)
        do {
            let match = try await services.matches.ghost(form.workoutID ?? "", by: context.user)
            return pages.redirect(to: "/matches/\(match.id)")
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await overview(request, context, error: error)
        }
    }

    /// POST /matches/:matchID/:answer
    func postMatchesMatchIDAnswer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("matchID")
        switch try context.parameters.require("answer") {
        case "accept":
            _ = try await services.matches.accept(id, by: context.user)
            return pages.redirect(to: "/matches/\(id)", notice: .challengeAccepted)
        case "decline":
            _ = try await services.matches.decline(id, by: context.user)
            return pages.redirect(to: "/matches", notice: .challengeDeclined)
        case "workout":
            let workout = try await services.matches.saveWorkout(id, by: context.user)
            return pages.redirect(to: "/workouts/\(workout.id)", notice: .matchSaved)
        default:
            throw AppError.notFound("action")
        }
    }

    /// GET /matches/:matchID
    func getMatchesMatchID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let match = try await services.matches.match(try context.parameters.require("matchID"), for: context.user)
        let people = try await people(of: [match])
        let sensors = try await services.live.sensors(of: context.user)
        var model = MatchPage(
            base: describe(match, viewer: context.user, people: people), secondMilliseconds: services.settings.matchSecondMilliseconds,
            sensors: sensors.map { .init(id: $0.id, name: $0.name ?? $0.address) }, hasSensors: !sensors.isEmpty)
        if let profile = try? await services.matches.anchors(of: context.user, now: Date(), field: nil, whose: "your") {
            model.restingHeartRate = Int(profile.restingHeartRate.rounded())
            model.maximumHeartRate = Int(profile.maximumHeartRate.rounded())
        }
        model.sides = sideCharts(match, viewer: context.user, people: people)
        return pages.page("match", title: model.base.title, model: model, request: request, identity: context.identity)
    }

    /// GET /notifications
    func getNotifications(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (notices, unread) = try await services.inbox.list(for: context.user, page: Page(limit: 100))
        let zone = TimeZones.zone(context.user.timeZone)
        return pages.page(
            "notifications", title: "Notifications",
            model: NotificationsPage(
                unread: unread, hasUnread: unread > 0, hasNotifications: !notices.isEmpty,
                notifications: notices.map { notice in
                    .init(
                        id: notice.id, text: notice.text, link: notice.link ?? "", hasLink: notice.link != nil, unread: notice.readAt == nil,
                        when: Formatting.dateTime(notice.createdAt, zone: zone), kind: notice.kind)
                }
            ), request: request, identity: context.identity)
    }

    /// POST /notifications/read
    func postNotificationsRead(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await services.inbox.markRead(nil, for: context.user)
        return pages.redirect(to: "/notifications", notice: .notificationsRead)
    }

    private func overview(_ request: Request, _ context: AuthenticatedContext, error: AppError? = nil) async throws -> Response {
        let user = context.user
        let matches = try await services.matches.list(for: user, page: Page(limit: 50))
        let people = try await people(of: matches)
        let described = matches.map { describe($0, viewer: user, people: people) }
        let toAnswer = described.filter(\.canAnswer)
        let open = described.filter { $0.isOpen && !$0.canAnswer }
        let past = described.filter { !$0.isOpen }
        let friends = try await services.friends.friends(of: user)
        let model = MatchesPage(
            toAnswer: toAnswer, hasToAnswer: !toAnswer.isEmpty, open: open, hasOpen: !open.isEmpty,
            past: past, hasPast: !past.isEmpty,
            friends: friends.map { .init(id: $0.id, fullName: $0.fullName, username: $0.username) }, hasFriends: !friends.isEmpty)
        return pages.page(
            "matches", title: "Matches", model: model, errors: error.map(PageRenderer.formErrors), request: request,
            identity: context.identity, status: error == nil ? .ok : .unprocessableContent)
    }

    func people(of matches: [MatchRecord]) async throws -> [String: UserRecord] {
        try await services.matches.people(in: matches)
    }

    /// What the match pages show of a match, from the viewer's side.
    func describe(_ match: MatchRecord, viewer: UserRecord, people: [String: UserRecord]) -> MatchSummary {
        let side = match.side(of: viewer.id)
        let zone = TimeZones.zone(viewer.timeZone)
        let otherID = side == "b" ? match.challengerID : match.opponentID
        let other = otherID.flatMap { people[$0] }
        let ghostOwner = match.ghostOwnerID.flatMap { people[$0] }
        let opponentName: String =
            switch match.kind {
            case .live: other?.fullName ?? "a former friend"
            case .ghost: ghostOwner.map { $0.id == viewer.id ? "your own workout" : "\($0.fullName)'s workout" } ?? "a workout"
            }
        let title = match.kind == .ghost ? "Ghost race against \(opponentName)" : "\(match.practice ? "Practice match" : "Match") against \(opponentName)"
        var described = MatchSummary(
            id: match.id, title: title, opponentName: opponentName, kind: match.kind.rawValue, isGhost: match.kind == .ghost,
            isPractice: match.isPractice,
            state: match.state.rawValue, stateLabel: stateLabel(match.state), duration: Formatting.duration(match.durationSeconds),
            durationSeconds: match.durationSeconds, created: Formatting.dateTime(match.createdAt, zone: zone),
            isPlayer: side != nil, side: side ?? "",
            canAnswer: match.state == .invited && side == "b", isWaiting: match.state == .invited && side == "a",
            isOpen: [.invited, .accepted, .running].contains(match.state),
            canPlay: side != nil && (match.state == .accepted || match.state == .running || (match.state == .invited && side == "a")),
            isOver: match.state.isOver, summary: stateLabel(match.state))
        if let result = match.result {
            let mine = side == "b" ? "b" : "a"
            let (myScore, theirScore) = mine == "a" ? (result.scoreA, result.scoreB) : (result.scoreB, result.scoreA)
            let outcome: String =
                if result.winner == nil { "Draw" } else if side == nil { result.winner == "b" ? "The workout won" : "The challenger won" } else {
                    result.winner == mine ? "You won" : "You lost"
                }
            let reason: String =
                switch result.reason {
                case "left": result.forfeitedBy == mine ? "you left early" : "your opponent left early"
                case "silence":
                    result.forfeitedBy == "both" ? "both fell silent" : (result.forfeitedBy == mine ? "no readings from you for 10 s" : "no readings from your opponent for 10 s")
                case "interrupted": "the server stopped during the match"
                default: "time was up"
                }
            let (myZones, theirZones) = mine == "a" ? (result.zonesA, result.zonesB) : (result.zonesB, result.zonesA)
            described.result = .init(
                outcome: outcome, reason: reason, myScore: myScore, theirScore: theirScore,
                margin: abs(result.scoreA - result.scoreB), played: Formatting.duration(result.secondsPlayed),
                zones: ReserveZone.allCases.map { zone in
                    .init(
                        name: zone.label, id: zone.identifier,
                        mine: Formatting.duration(zone.rawValue < myZones.count ? myZones[zone.rawValue] : 0),
                        theirs: Formatting.duration(zone.rawValue < theirZones.count ? theirZones[zone.rawValue] : 0))
                })
            let implausible = result.implausibleSecondsA + result.implausibleSecondsB > 0 ? " · implausible data" : ""
            described.summary = "\(outcome) \(myScore)–\(theirScore)\(match.isPractice ? " · practice" : "")\(implausible)"
            let saved = side == "b" ? match.workoutB : match.workoutA
            described.savedWorkout = saved
            described.canSave =
                side != nil && saved == nil && result.forfeitedBy != side && result.forfeitedBy != "both"
                && (side == "b" ? result.heartRateB : result.heartRateA).contains { $0 != nil }
        }
        return described
    }

    /// Both sides' heart rate and time in zones once the match is over, the viewer's first.
    func sideCharts(_ match: MatchRecord, viewer: UserRecord, people: [String: UserRecord]) -> [MatchPage.SideCharts] {
        guard let result = match.result else { return [] }
        func name(_ side: String) -> String {
            if side == match.side(of: viewer.id) { return "You" }
            if side == "b", match.kind == .ghost { return "The ghost" }
            return people[side == "a" ? match.challengerID : (match.opponentID ?? "")]?.fullName ?? "Your opponent"
        }
        // The players see both sides; the owner of a raced ghost only their own workout's.
        let order = match.side(of: viewer.id) == "b" ? ["b", "a"] : (match.side(of: viewer.id) == "a" ? ["a", "b"] : ["b"])
        return order.map { side in
            let (series, zones, anchors, sources, implausible) =
                side == "a"
                ? (result.heartRateA, result.zonesA, match.anchorsA, result.sourcesA, result.implausibleSecondsA)
                : (result.heartRateB, result.zonesB, match.anchorsB, result.sourcesB, result.implausibleSecondsB)
            let who = name(side)
            let label = who == "You" ? "your side" : who
            return .init(
                name: who, source: sources.isEmpty ? "not recorded" : sources.map(\.label).joined(separator: ", "),
                hasHeartRate: !series.isEmpty,
                implausible: implausible > 0
                    ? "Implausible data: \(implausible) s of this heart rate could not come from a heart (beat-to-beat times that disagree with the rate, a jump of more than 30 beats a minute in a second, or the same number for minutes), so \(implausible == 1 ? "it counted" : "they counted") as lost contact."
                    : nil,
                heartRateChart: series.isEmpty ? "" : WorkoutCharts.heartRate(series, profile: anchors?.zoneProfile, name: label, id: "hr-\(side)", height: 240).svg,
                zoneChart: WorkoutCharts.timeInZones(zones, name: label, id: "zones-\(side)", titled: false).svg)
        }
    }

    private func stateLabel(_ state: MatchState) -> String {
        switch state {
        case .invited: "Invitation pending"
        case .accepted: "Ready: waiting for both players"
        case .running: "Running"
        case .declined: "Declined"
        case .expired: "Expired"
        case .finished: "Finished"
        }
    }
}
