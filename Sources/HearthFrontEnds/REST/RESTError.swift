import HearthCore
import HearthNet

/// A REST failure rendered the way Firebase renders it: a status and `{"error": "<message>"}`.
package struct RESTError: Error, Sendable {
    var status: Int
    var message: String
    var headers: [(String, String)] = []

    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    static let invalidJSON = RESTError(400, "Invalid data; couldn't parse JSON object, array, or value.")
    static let permissionDenied = RESTError(401, "Permission denied")
    /// A 412 for a caller who may not read the location: the value it holds now is not shown.
    static let conditionFailedUnreadable = RESTError(
        412, "The ETag does not match the data at this location; its current ETag is in the ETag header.")
    static let writeTooBig = RESTError(
        400, "Data to write exceeds the maximum size that can be modified with a single request.")

    /// A PATCH or POST with `if-match`: conditional requests are PUT's and DELETE's only, and a write that would
    /// ignore its condition is refused rather than made unconditionally.
    static func conditionalMethod(_ method: String) -> RESTError {
        RESTError(
            400,
            "if-match (a conditional request) is supported only for PUT and DELETE; this \(method) was not applied. "
                + "Send it without if-match, or write with a conditional PUT.")
    }

    /// A value that breaks Firebase's data rules, worded as Firebase words it ("Invalid data; …").
    static func invalidData(_ detail: String) -> RESTError {
        RESTError(400, detail.hasPrefix("Invalid data") ? detail : "Invalid data; \(detail)")
    }

    static func invalidPath(_ detail: String) -> RESTError {
        RESTError(400, "Invalid path: \(detail)")
    }

    var response: HTTPResponse {
        var headers = HTTPHeaders([("Content-Type", "application/json; charset=utf-8")])
        for (name, value) in self.headers { headers.add(name, value) }
        return HTTPResponse(status: self.status, headers: headers, body: RESTError.body(self.message))
    }

    /// `{"error":"…"}` with the message JSON-escaped.
    static func body(_ message: String) -> [UInt8] {
        var bytes = Array("{\"error\":".utf8)
        bytes += Node(.string(message)).jsonBytes(format: .plain, pretty: false)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
