import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkStore
import Hummingbird

/// Home, sign-up, sign-in, sign-out, settings and password.
struct WebAccountPages {
    let services: HeartworkServices
    let pages: PageRenderer
    let secureCookies: Bool

    struct SignupForm: Decodable {
        let username: String?, fullName: String?, email: String?, password: String?
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

    func register(public router: Router<AppRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        let pages = pages
        router.get("/") { _, context -> Response in
            if context.identity != nil { return PageRenderer.redirect(to: "/workouts") }
            return pages.page("home", title: "Heartwork", values: [:], identity: nil)
        }
        router.get("signup") { _, context -> Response in
            pages.page("signup", title: "Create your account", values: [:], identity: context.identity)
        }
        router.post("signup") { request, _ -> Response in
            try SameOrigin.require(request)
            let form = try await WebForm.decode(SignupForm.self, from: request)
            let registration = Registration(
                username: form.username ?? "", fullName: form.fullName ?? "", email: form.email ?? "", password: form.password ?? "")
            do {
                let user = try await services.accounts.register(registration)
                let (token, _) = try await services.accounts.openSession(for: user, kind: .web)
                var response = PageRenderer.redirect(to: "/profile?welcome=1")
                response.setCookie(sessionCookie(token))
                return response
            } catch let error as AppError {
                return pages.page("signup", title: "Create your account", values: [
                    "error": error.detail, "errorField": error.field ?? "",
                    "username": registration.username, "fullName": registration.fullName, "email": registration.email,
                ], identity: nil, status: Problem(error).status)
            }
        }
        router.get("login") { request, context -> Response in
            pages.page("login", title: "Sign in", values: ["next": request.uri.queryParameters.get("next") ?? ""], identity: context.identity)
        }
        router.post("login") { request, context -> Response in
            try SameOrigin.require(request)
            let form = try await WebForm.decode(LoginForm.self, from: request)
            let next = SafeRedirect.next(form.next)
            do {
                let signIn = try await services.accounts.signIn(
                    username: form.username ?? "", password: form.password ?? "", address: context.remoteAddress, kind: .web)
                var response = PageRenderer.redirect(to: next)
                response.setCookie(sessionCookie(signIn.token))
                return response
            } catch let error as AppError {
                let problem = Problem(error)
                return pages.page("login", title: "Sign in", values: ["error": problem.detail, "username": form.username ?? "", "next": next],
                                  identity: nil, status: problem.status)
            }
        }
        router.post("logout") { _, context -> Response in
            if let identity = context.identity { try await services.accounts.signOut(identity) }
            var response = PageRenderer.redirect(to: "/")
            response.setCookie(sessionCookie("", maxAge: 0))
            return response
        }
        signedIn.get("settings") { request, context -> Response in
            pages.page("settings", title: "Settings", values: settingsValues(context.user, saved: request.uri.queryParameters.get("saved")), identity: context.identity)
        }
        signedIn.post("settings") { request, context -> Response in
            let form = try await WebForm.decode(SettingsForm.self, from: request)
            do {
                guard let maxShared = Int(form.maxSharedWorkouts ?? "") else {
                    throw AppError.invalid("enter a whole number of workouts", field: "maxSharedWorkouts")
                }
                _ = try await services.profiles.updateSettings(
                    userID: context.user.id, SettingsChanges(autoShareWorkouts: form.autoShareWorkouts == "on", maxSharedWorkouts: maxShared))
                return PageRenderer.redirect(to: "/settings?saved=settings")
            } catch let error as AppError {
                var values = settingsValues(context.user, saved: nil)
                values["error"] = error.detail
                return pages.page("settings", title: "Settings", values: values, identity: context.identity, status: Problem(error).status)
            }
        }
        signedIn.post("settings/password") { request, context -> Response in
            let form = try await WebForm.decode(PasswordForm.self, from: request)
            do {
                try await services.accounts.changePassword(context.identity, current: form.currentPassword ?? "", new: form.newPassword ?? "")
                return PageRenderer.redirect(to: "/settings?saved=password")
            } catch let error as AppError {
                var values = settingsValues(context.user, saved: nil)
                values["passwordError"] = error.detail
                return pages.page("settings", title: "Settings", values: values, identity: context.identity, status: Problem(error).status)
            }
        }
    }

    private func sessionCookie(_ token: String, maxAge: Int? = nil) -> Cookie {
        SessionCookie.make(token, maxAge: maxAge ?? Int(services.settings.sessionLifetime), secure: secureCookies)
    }

    private func settingsValues(_ user: UserRecord, saved: String?) -> [String: Any] {
        [
            "autoShareWorkouts": user.autoShareWorkouts, "maxSharedWorkouts": user.maxSharedWorkouts,
            "savedSettings": saved == "settings", "savedPassword": saved == "password",
        ]
    }
}
