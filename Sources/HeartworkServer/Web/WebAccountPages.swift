import Foundation
import HeartworkStore
import Hummingbird

/// Home, sign-up, sign-in, sign-out, settings and password.
struct WebAccountPages {
    let services: AppServices

    func register(on router: Router<AppRequestContext>) {
        let pages = services.pages
        router.get("/") { _, context -> Response in
            if context.identity != nil { return PageRenderer.redirect(to: "/workouts") }
            return pages.page("home", title: "Heartwork", values: [:], identity: nil)
        }
        router.get("signup") { _, context -> Response in
            pages.page("signup", title: "Create your account", values: [:], identity: context.identity)
        }
        router.post("signup") { request, context -> Response in
            try requireSameOrigin(request)
            let form = try await FormData.read(request)
            let body = RegisterRequest(
                username: form["username"] ?? "", fullName: form["fullName"] ?? "", email: form["email"] ?? "", password: form["password"] ?? "")
            do {
                let user = try await services.accounts.register(body)
                let (token, _) = try await services.accounts.openSession(for: user, kind: .web)
                var response = PageRenderer.redirect(to: "/profile?welcome=1")
                response.setCookie(services.sessionCookie(token, maxAge: Int(services.configuration.sessionLifetime)))
                return response
            } catch let problem as APIError {
                return pages.page("signup", title: "Create your account", values: [
                    "error": problem.detail, "errorField": problem.field ?? "",
                    "username": body.username, "fullName": body.fullName, "email": body.email,
                ], identity: nil, status: problem.status)
            }
        }
        router.get("login") { request, context -> Response in
            pages.page("login", title: "Sign in", values: ["next": request.uri.queryParameters.get("next") ?? ""], identity: context.identity)
        }
        router.post("login") { request, context -> Response in
            try requireSameOrigin(request)
            let form = try await FormData.read(request)
            let next = AppServices.safeNext(form["next"])
            do {
                let (token, _, _) = try await services.accounts.signIn(
                    username: form["username"] ?? "", password: form["password"] ?? "", address: context.remoteAddress, kind: .web)
                var response = PageRenderer.redirect(to: next)
                response.setCookie(services.sessionCookie(token, maxAge: Int(services.configuration.sessionLifetime)))
                return response
            } catch let problem as APIError {
                return pages.page("login", title: "Sign in", values: ["error": problem.detail, "username": form["username"] ?? "", "next": next],
                                  identity: nil, status: problem.status)
            }
        }
        router.post("logout") { _, context -> Response in
            if let identity = context.identity { try await services.accounts.signOut(identity) }
            var response = PageRenderer.redirect(to: "/")
            response.setCookie(services.sessionCookie("", maxAge: 0))
            return response
        }
        router.get("settings") { request, context -> Response in
            let identity = try context.requireIdentity()
            return pages.page("settings", title: "Settings", values: settingsValues(identity.user, saved: request.uri.queryParameters.get("saved")), identity: identity)
        }
        router.post("settings") { request, context -> Response in
            let identity = try context.requireIdentity()
            let form = try await FormData.read(request)
            var user = identity.user
            do {
                guard let maxShared = Int(form["maxSharedWorkouts"] ?? "") else {
                    throw APIError.invalid("enter a whole number of workouts", field: "maxSharedWorkouts")
                }
                try SettingsUpdateRequest(autoShareWorkouts: form["autoShareWorkouts"] == "on", maxSharedWorkouts: maxShared).apply(to: &user)
                try await services.save(user)
                return PageRenderer.redirect(to: "/settings?saved=settings")
            } catch let problem as APIError {
                var values = settingsValues(identity.user, saved: nil)
                values["error"] = problem.detail
                return pages.page("settings", title: "Settings", values: values, identity: identity, status: problem.status)
            }
        }
        router.post("settings/password") { request, context -> Response in
            let identity = try context.requireIdentity()
            let form = try await FormData.read(request)
            do {
                try await services.accounts.changePassword(identity, current: form["currentPassword"] ?? "", new: form["newPassword"] ?? "")
                return PageRenderer.redirect(to: "/settings?saved=password")
            } catch let problem as APIError {
                var values = settingsValues(identity.user, saved: nil)
                values["passwordError"] = problem.detail
                return pages.page("settings", title: "Settings", values: values, identity: identity, status: problem.status)
            }
        }
    }

    private func settingsValues(_ user: UserRecord, saved: String?) -> [String: Any] {
        [
            "autoShareWorkouts": user.autoShareWorkouts, "maxSharedWorkouts": user.maxSharedWorkouts,
            "savedSettings": saved == "settings", "savedPassword": saved == "password",
        ]
    }
}
