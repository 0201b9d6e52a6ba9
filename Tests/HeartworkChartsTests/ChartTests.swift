import Foundation
import HeartworkCharts
import HeartworkCore
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Counts elements by name while checking the document is well-formed XML.
final class SVGInspector: NSObject, XMLParserDelegate {
    var elementCounts: [String: Int] = [:]
    var texts: [String] = []

    static func inspect(_ svg: String) throws -> SVGInspector {
        let inspector = SVGInspector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = inspector
        guard parser.parse() else {
            throw CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: parser.parserError?.localizedDescription ?? "invalid XML"])
        }
        return inspector
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elementCounts[name, default: 0] += 1
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        texts.append(string)
    }
}

@Suite("Charts")
struct ChartTests {
    @Test func hrvReportIsWellFormedAndHasItsThreePanels() throws {
        var random = SplitMix64(seed: 2)
        let clean = SyntheticRRModel().generate(beats: 400, seed: 2)
        let (rr, _) = ArtifactInjector.inject(into: clean, everyBeats: 40, using: &random)
        let result = try HRVAnalysis.analyze(rr)
        let svg = HRVReportChart.svg(title: "Player <7> & co", result: result)
        let inspector = try SVGInspector.inspect(svg)
        let text = inspector.texts.joined()
        #expect(text.contains("RR tachogram") && text.contains("Poincaré plot") && text.contains("Power spectral density"))
        #expect(text.contains("Player <7> & co"))  // escaped in the file, intact when read
        #expect(inspector.elementCounts["ellipse"] == 1)  // the SD1/SD2 ellipse
        #expect(inspector.elementCounts["title"] == 1)  // accessible name
        #expect((inspector.elementCounts["circle"] ?? 0) == result.correction.correctedIndices.count)
        #expect(!result.correction.correctedIndices.isEmpty)
    }

    @Test func niceTicks() {
        let scale = LinearScale(domain: 0...1000, range: (0, 100))
        #expect(scale.ticks(count: 5) == [0, 200, 400, 600, 800, 1000])
        #expect(scale(500) == 50)
        #expect(LinearScale.niceDomain([3.2, 97.5]) == 0...100)
        #expect(LinearScale.niceStep(span: 0.5, count: 5) == 0.1)
    }

    @Test func textIsEscaped() {
        #expect(SVGDocument.escape("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;")
    }
}
