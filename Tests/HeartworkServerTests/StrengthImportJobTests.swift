import Foundation
import HeartworkApp
import HeartworkTestSupport
import Hummingbird
import Testing

/// Issue 40: Strong and Hevy imports are jobs on the one queue — with progress, one of the
/// user's two open imports, the header checked as the file arrives, and the summary kept with
/// the import. (Resumed after kill -9: `ServeTests.aStrengthImportKilledMidwayFinishesAfterARestart`.)
@Suite("Strength imports as jobs (issue 40)")
struct StrengthImportJobTests {
    static let csv = """
        Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps
        2024-03-04 18:02:11,Evening,1h,Squat (Barbell),1,100,5
        2024-03-04 18:02:11,Evening,1h,Squat (Barbell),2,100,5
        2024-03-06 07:30:00,Morning,45m,Bench Press (Barbell),1,70,8

        """

    /// No runner in the test process: the import is queued (202, Location), its status says so,
    /// and once the queue has run it is done with the summary the request would have waited for.
    @Test(arguments: TestDatabase.all)
    func anImportIsQueuedThenDoneWithItsSummary(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("queuer")
            let posted = try await server.request(.post, "/api/strength/import", token: token, raw: Data(Self.csv.utf8), contentType: "text/csv")
            #expect(posted.status == .accepted, "\(posted.text)")
            let id = try #require(posted.json["id"] as? String)
            #expect(posted.headers[.location] == "/api/strength/imports/\(id)")
            #expect(posted.json["state"] as? String == "queued" && posted.json["bytesTotal"] as? Int == Self.csv.utf8.count)
            // The user's open imports: this one and one more; a third of any kind waits.
            let second = try await server.request(.post, "/api/strength/import", token: token, raw: Data(Self.csv.utf8), contentType: "text/csv")
            #expect(second.status == .accepted)
            let third = try await server.request(.post, "/api/strength/import", token: token, raw: Data(Self.csv.utf8), contentType: "text/csv")
            #expect(third.status == .tooManyRequests && third.text.contains("still arriving, waiting or running"))
            await server.services.jobs.runUntilIdle()
            let done = try await server.request(.get, "/api/strength/imports/\(id)", token: token)
            #expect(done.json["state"] as? String == "done" && done.json["progress"] as? Double == 1, "\(done.text)")
            let result = try #require(done.json["result"] as? [String: Any])
            #expect(result["imported"] as? Int == 2 && result["source"] as? String == "strong" && result["importID"] as? String == id)
            let other = try #require(second.json["id"] as? String)
            let again = try await server.request(.get, "/api/strength/imports/\(other)", token: token).json["result"] as? [String: Any]
            #expect(again?["imported"] as? Int == 0 && again?["duplicates"] as? Int == 2, "the same file twice: every workout once")
            // Someone else's import is not found; nor is an Apple Health import under this route.
            let (_, stranger) = try await server.signUp("stranger")
            #expect(try await server.request(.get, "/api/strength/imports/\(id)", token: stranger).status == .notFound)
            #expect(try await server.request(.get, "/api/imports/\(id)", token: token).status == .notFound)
        }
    }

    /// A file whose header is not an export is refused at the door (422), and leaves nothing:
    /// no import, no file, no open place taken.
    @Test func aFileThatIsNotAnExportIsRefusedAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let imports = directory.url.appendingPathComponent("imports").path
        try await ServerHarness.run(adjusting: { $0.importDirectory = imports }) { server in
            let (_, token) = try await server.signUp("wrongfile")
            for _ in 0..<3 {
                let refused = try await server.request(.post, "/api/strength/import", token: token, raw: Data("a,b\n1,2\n".utf8), contentType: "text/csv")
                #expect(refused.status == .unprocessableContent && refused.text.contains("not a Strong or Hevy export"))
            }
            #expect(HostileInputTests.files(imports).isEmpty)
            #expect(try await server.request(.post, "/api/strength/import", token: token, raw: Data(Self.csv.utf8), contentType: "text/csv").status == .accepted)
        }
    }

    /// The page: a pasted export that is not done within the wait goes to its import's page,
    /// which says it is waiting, then shows the summary.
    @Test func thePageFollowsAnImportItCouldNotWaitFor() async throws {
        try await ServerHarness.run { server in
            _ = try await server.signUp("pager")
            let session = try await server.webSession("pager")
            var headers = HTTPFields()
            headers[.cookie] = session.cookie
            headers[.contentType] = "application/x-www-form-urlencoded"
            let form = "_csrf=\(session.csrf)&csv=" + (Self.csv.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let posted = try await server.request(.post, "/strength/import", raw: Data(form.utf8), headers: headers)
            #expect(posted.status == .seeOther, "\(posted.text.prefix(300))")
            let location = try #require(posted.headers[.location])
            #expect(location.hasPrefix("/strength/imports/"))
            var cookie = HTTPFields()
            cookie[.cookie] = session.cookie
            let waiting = try await server.request(.get, location, headers: cookie)
            #expect(waiting.status == .ok && waiting.text.contains("Waiting for its turn") && waiting.text.contains("data-import-pending"))
            await server.services.jobs.runUntilIdle()
            let done = try await server.request(.get, location, headers: cookie)
            #expect(done.text.contains("Imported from Strong") && !done.text.contains("data-import-pending"))
        }
    }
}
