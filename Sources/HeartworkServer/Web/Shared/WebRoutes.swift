import Foundation
import HeartworkApp
import HeartworkCharts
import Hummingbird

/// The server-rendered web app. Pages that need a signed-in session live in a group of
/// `AuthenticatedContext` (a 401 shows the sign-in form); forms post back with the session's
/// CSRF token and redirect (303).
struct WebRoutes {
    let services: HeartworkServices
    let pages: PageRenderer
    let secureCookies: Bool
    let mapTiles: MapTiles?

    func register(public router: Router<AppRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        StaticFiles.register(on: router)
        WebAccountPages(services: services, pages: pages, secureCookies: secureCookies).register(public: router, signedIn: signedIn)
        WebProfilePages(services: services, pages: pages).register(on: signedIn)
        WebFriendPages(services: services, pages: pages).register(on: signedIn)
        WebWorkoutPages(services: services, pages: pages, mapTiles: mapTiles).register(on: signedIn)
        WebTeamPages(services: services, pages: pages).register(on: signedIn)
        WebMatchPages(services: services, pages: pages).register(on: signedIn)
        WebStrengthPages(services: services, pages: pages).register(on: signedIn)
        WebHealthPages(services: services, pages: pages).register(on: signedIn)
        WebGatewayPages(pages: pages).register(public: router, signedIn: signedIn)
        WebRecordPages(services: services, pages: pages).register(on: signedIn)
    }
}
