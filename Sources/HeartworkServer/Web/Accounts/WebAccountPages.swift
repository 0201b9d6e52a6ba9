import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkCore
import HeartworkModel
import Hummingbird

/// The start page (the landing page, or the dashboard when signed in), sign-up, sign-in,
/// sign-out, settings and password.
struct WebAccountPages {
    let services: HeartworkServices
    let pages: PageRenderer
    let secureCookies: Bool

    struct SignupForm: Decodable {
        let username: String?, fullName: String?, email: String?, password: String?, timeZone: String?
        /// Steps 2 and 3 (Pocket PT's sign-up): optional.
        let goal: String?, lifestyle: String?, feedback: String?, webhookUrl: String?
    }

    struct LoginForm: Decodable {
        let username: String?, password: String?, next: String?
    }

    struct SettingsForm: Decodable {
        let autoShareWorkouts: String?, maxSharedWorkouts: String?
    }

    struct PasswordForm: Decodable {
        let currentPassword: String?, newPassword: String?
    }

    struct DeleteAccountForm: Decodable {
        let password: String?
    }

    var dashboard: WebDashboard { WebDashboard(services: services) }

    func register(public router: Router<AppRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        router.get("/", use: get)
        router.get("signup", use: getSignup)
        router.post("signup", use: postSignup)
        router.get("strength/goals", use: getStrengthGoals)
        router.get("login", use: getLogin)
        router.post("login", use: postLogin)
        router.post("logout", use: postLogout)
        signedIn.get("settings", use: getSettings)
        signedIn.post("settings", use: postSettings)
        registerAccountData(signedIn)
        signedIn.post("settings/password", use: postSettingsPassword)
        signedIn.post("settings/sync-tokens", use: postSettingsSyncTokens)
        signedIn.post("settings/sync-tokens/:tokenID/revoke", use: postSettingsSyncTokensTokenIDRevoke)
    }

    /// GET //
    func get(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let identity = context.identity else {
            return pages.page("home", title: "Heartwork", model: EmptyPage(), request: request, identity: nil)
        }
        return pages.page("dashboard", title: "Your week", model: try await dashboard.model(for: identity.user), request: request, identity: identity)
    }

    /// GET /signup
    func getSignup(_ request: Request, context: AppRequestContext) async throws -> Response {
        pages.page("signup", title: "Create your account", model: SignupPage(), request: request, identity: context.identity)
    }

    /// POST /signup
    func postSignup(_ request: Request, context: AppRequestContext) async throws -> Response {
        try SameOrigin.require(request)
        let form = try await WebForm.decode(SignupForm.self, from: request)
        let registration = Registration(
            username: form.username ?? "", fullName: form.fullName ?? "", email: form.email ?? "", password: form.password ?? "",
            timeZone: WebForm.nonEmpty(form.timeZone))
        let goal = WebForm.nonEmpty(form.goal).flatMap(StrengthGoal.init(rawValue:))
        let lifestyle = WebForm.nonEmpty(form.lifestyle).flatMap(Lifestyle.init(rawValue:))
        let feedback = form.feedback == "yes"
        do {
            // Steps 2 and 3 are checked first: the account is made only when all of it is right.
            var errors = [AppError.FieldError]()
            if WebForm.nonEmpty(form.goal) != nil, goal == nil { errors.append(.init(field: "goal", detail: "choose one of the three goals")) }
            if WebForm.nonEmpty(form.lifestyle) != nil, lifestyle == nil { errors.append(.init(field: "lifestyle", detail: "choose one of the four lifestyles")) }
            var webhook: String?
            if feedback {
                if let url = WebForm.nonEmpty(form.webhookUrl) {
                    do { webhook = try services.strength.checkedWebhookURL(url) } catch { errors += error.allFieldErrors }
                } else {
                    errors.append(.init(field: "webhookUrl", detail: "give the address to send the message to, or choose No"))
                }
            }
            guard errors.isEmpty else { throw AppError.invalid(errors) }
            let user = try await services.accounts.register(registration)
            if goal != nil || lifestyle != nil || webhook != nil {
                _ = try await services.strength.updateSettings(.init(goal: goal, lifestyle: lifestyle, webhookURL: webhook.map { .set($0) }), for: user)
            }
            let (token, _) = try await services.accounts.openSession(for: user, kind: .web)
            var response = pages.redirect(to: "/", notice: .welcome)
            response.setCookie(sessionCookie(token))
            return response
        } catch let error as AppError {
            let model = SignupPage(
                username: registration.username, fullName: registration.fullName, email: registration.email,
                goals: StrengthChoice.goals(selected: goal), lifestyles: StrengthChoice.lifestyles(selected: lifestyle), feedback: feedback,
                webhookUrl: form.webhookUrl)
            return pages.page(
                "signup", title: "Create your account", model: model, errors: PageRenderer.formErrors(error), request: request, identity: nil,
                status: Problem(error).status)
        }
    }

    /// GET /strength/goals: the three goals explained, a page of its own (the seed's Goal
    /// Description screen); public, as sign-up links to it.
    func getStrengthGoals(_ request: Request, context: AppRequestContext) async throws -> Response {
        var current: StrengthGoal?
        if let user = context.identity?.user { current = try await services.strength.settings(for: user).goal }
        func example(_ goal: StrengthGoal) -> String {
            let kilograms = WorkoutGenerator(goal: goal).round(Brzycki.weight(forReps: goal.targetReps, oneRepMax: 100))
            return "\(WorkoutGenerator.workingSets) sets of \(goal.targetReps) at \(Int(kilograms)) kg"
        }
        // Every number comes from the rules themselves (the generator's sets and reps, Brzycki,
        // `NutritionTargets`' constants), so the page cannot drift from what is computed.
        typealias N = NutritionTargets
        func number(_ value: Double) -> String { String(format: "%g", value) }
        let percent = StrengthTexts.percent
        func sets(_ goal: StrengthGoal) -> String {
            let share = Int(Brzycki.weight(forReps: goal.targetReps, oneRepMax: 100).rounded())
            return "\(WorkoutGenerator.workingSets) sets of \(goal.targetReps) repetitions at about \(share) % of the most you could lift once"
        }
        let split =
            "protein \(number(N.proteinGramsPerKilogram)) g per kilogram of body weight, fat \(percent(N.fatShare)) % of the energy, carbohydrate the rest"
        let paragraphs: [StrengthGoal: [String]] = [
            .weightLoss: [
                "For losing body fat while keeping your strength. Every exercise is \(sets(.weightLoss)): more work, less load.",
                "Food: your daily energy use minus \(number(N.weightLossKilocaloriesPerKilogram)) kcal a day for each kilogram you weigh. \(split.prefix(1).uppercased() + split.dropFirst()).",
            ],
            .muscleMaintenance: [
                "For keeping the strength and muscle you have, or for starting out. Every exercise is \(sets(.muscleMaintenance)).",
                "Food: as much as you use in a day, split like weight loss: \(split).",
            ],
            .massGain: [
                "For building muscle and strength. Every exercise is \(sets(.massGain)): heavier, fewer repetitions.",
                "Food: \(percent(N.massGainFactor - 1)) % more than you use in a day; of that energy \(percent(N.massGainProteinShare)) % protein, \(percent(N.massGainCarbohydrateShare)) % carbohydrate and \(percent(N.massGainFatShare)) % fat.",
            ],
        ]
        let model = StrengthGoalsPage(
            goals: StrengthGoal.allCases.map {
                .init(
                    id: $0.rawValue, name: $0.displayName, summary: StrengthTexts.goalSummary($0), paragraphs: paragraphs[$0] ?? [], reps: $0.targetReps,
                    example: example($0), current: $0 == current)
            }, signedIn: context.identity != nil)
        return pages.page("strength-goals", title: "What the goals mean", model: model, request: request, identity: context.identity)
    }

    /// GET /login
    func getLogin(_ request: Request, context: AppRequestContext) async throws -> Response {
        pages.page("login", title: "Sign in", model: LoginPage(next: String(request.uri.queryParameters.get("next") ?? "")), request: request, identity: context.identity)
    }

    /// POST /login
    func postLogin(_ request: Request, context: AppRequestContext) async throws -> Response {
        try SameOrigin.require(request)
        let form = try await WebForm.decode(LoginForm.self, from: request)
        let next = SafeRedirect.next(form.next)
        do {
            let signIn = try await services.accounts.signIn(
                username: form.username ?? "", password: form.password ?? "", address: context.remoteAddress, kind: .web)
            var response = pages.redirect(to: next)
            response.setCookie(sessionCookie(signIn.token))
            return response
        } catch let error as AppError {
            let problem = Problem(error)
            return pages.page(
                "login", title: "Sign in", model: LoginPage(next: next, error: problem.sentence, username: form.username ?? ""),
                request: request, identity: nil, status: problem.status)
        }
    }

    /// POST /logout
    func postLogout(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let identity = context.identity { try await services.accounts.signOut(identity) }
        var response = pages.redirect(to: "/login", notice: .signedOut)
        response.setCookie(sessionCookie("", maxAge: 0))
        return response
    }

    /// GET /settings
    func getSettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        pages.page("settings", title: "Settings", model: try await settingsPage(context.user, request: request), request: request, identity: context.identity)
    }

    /// POST /settings
    func postSettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(SettingsForm.self, from: request)
        do {
            guard let maxShared = Int(form.maxSharedWorkouts?.trimmingCharacters(in: .whitespaces) ?? "") else {
                throw AppError.invalid("enter a whole number of workouts", field: "maxSharedWorkouts")
            }
            _ = try await services.profiles.updateSettings(
                userID: context.user.id, SettingsChanges(autoShareWorkouts: form.autoShareWorkouts == "on", maxSharedWorkouts: maxShared))
            return pages.redirect(to: "/settings", notice: .settingsSaved)
        } catch let error as AppError {
            var model = try await settingsPage(context.user, request: request)
            model.autoShareWorkouts = form.autoShareWorkouts == "on"
            model.maxSharedWorkouts = form.maxSharedWorkouts ?? ""
            return pages.page(
                "settings", title: "Settings", model: model, errors: PageRenderer.formErrors(error), request: request,
                identity: context.identity, status: Problem(error).status)
        }
    }

    /// POST /settings/password
    func postSettingsPassword(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(PasswordForm.self, from: request)
        do {
            try await services.accounts.changePassword(context.identity, current: form.currentPassword ?? "", new: form.newPassword ?? "")
            return pages.redirect(to: "/settings", notice: .passwordChanged)
        } catch let error as AppError {
            var model = try await settingsPage(context.user, request: request)
            model.password = PageRenderer.formErrors(error)
            return pages.page(
                "settings", title: "Settings", model: model, request: request, identity: context.identity,
                status: Problem(error).status)
        }
    }

    private func registerAccountData(_ signedIn: RouterGroup<AuthenticatedContext>) {
        // The same archive as GET /api/me/export, for the settings page's link.
        signedIn.get("settings/export", use: getSettingsExport)
        signedIn.post("settings/delete", use: postSettingsDelete)
    }

    /// GET /settings/export
    func getSettingsExport(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        AccountRoutes.exportResponse(for: context.user, archive: services.archives)
    }

    /// POST /settings/delete
    func postSettingsDelete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(DeleteAccountForm.self, from: request)
        do {
            try await services.accounts.deleteAccount(context.identity, password: form.password ?? "")
            var response = pages.redirect(to: "/login", notice: .accountDeleted)
            response.setCookie(sessionCookie("", maxAge: 0))
            return response
        } catch let error as AppError {
            var model = try await settingsPage(context.user, request: request)
            model.deletion = PageRenderer.formErrors(error)
            return pages.page(
                "settings", title: "Settings", model: model, request: request, identity: context.identity,
                status: Problem(error).status)
        }
    }

    private func sessionCookie(_ token: String, maxAge: Int? = nil) -> Cookie {
        SessionCookie.make(token, maxAge: maxAge ?? Int(services.settings.sessionLifetime), secure: secureCookies)
    }

    private func settingsPage(_ user: UserRecord, request: Request) async throws -> SettingsPage {
        var page = SettingsPage(autoShareWorkouts: user.autoShareWorkouts, maxSharedWorkouts: String(user.maxSharedWorkouts))
        let zone = TimeZones.zone(user.timeZone)
        page.sync.tokens = try await services.sync.tokens(for: user).map { token in
            SyncSettings.Token(
                id: token.id, name: token.name, created: Formatting.day(token.createdAt, zone: zone),
                lastUsed: token.lastUsedAt.map { Formatting.dateTime($0, zone: zone) } ?? "never")
        }
        page.sync.url = Self.origin(request, secure: secureCookies) + "/api/sync/health-auto-export"
        return page
    }

    /// This server as the browser reached it ("https://heartwork.example.org"): the Host it
    /// asked for, over HTTPS when the server sets secure cookies or a proxy says so.
    static func origin(_ request: Request, secure: Bool) -> String {
        let host = request.head.authority ?? "localhost"
        let https = secure || request.headers[Self.forwardedProto]?.lowercased() == "https"
        return (https ? "https://" : "http://") + host
    }

    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!

    struct SyncTokenForm: Decodable {
        let name: String?
    }

    /// POST /settings/sync-tokens: the token is shown once, on the page this answers with.
    func postSettingsSyncTokens(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(SyncTokenForm.self, from: request)
        do {
            let created = try await services.sync.createToken(name: form.name ?? "", for: context.user)
            var model = try await settingsPage(context.user, request: request)
            model.sync.newToken = created.secret
            model.sync.newTokenName = created.token.name
            return pages.page("settings", title: "Settings", model: model, request: request, identity: context.identity, status: .created)
        } catch let error as AppError {
            var model = try await settingsPage(context.user, request: request)
            model.sync.name = form.name ?? ""
            model.sync.errors = PageRenderer.formErrors(error)
            return pages.page("settings", title: "Settings", model: model, request: request, identity: context.identity, status: Problem(error).status)
        }
    }

    /// POST /settings/sync-tokens/:tokenID/revoke
    func postSettingsSyncTokensTokenIDRevoke(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await services.sync.revokeToken(try context.parameters.require("tokenID"), of: context.user)
        return pages.redirect(to: "/settings", notice: .syncTokenRevoked)
    }
}
