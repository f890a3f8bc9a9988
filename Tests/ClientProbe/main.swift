// hearth-client-probe: an app made of the `Hearth` library, for tests that need a client in a process of its own
// (one they can SIGKILL). It prints one line when it is ready for the test's next step, then runs until killed.
//
//   hearth-client-probe presence <url> <user>         the docs' presence pattern; prints "present <key>" once the
//                                                     connection's entry is written and its onDisconnects are queued
//   hearth-client-probe write-offline <url> <folder>  persistence on, offline: writes, then prints "logged"
//   hearth-client-probe online <url> <folder>         persistence on, online: prints "connected" when it is
import Dispatch
import Foundation
import Hearth

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: hearth-client-probe presence|write-offline|online <url> <arg>\n".utf8))
    exit(64)
}
let (mode, url, argument) = (arguments[1], arguments[2], arguments[3])

/// Prints a line at once (the test reads it through a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let database = Database.database(url: url)
database.callbackQueue = DispatchQueue(label: "probe.callbacks")
if mode != "presence" {
    database.isPersistenceEnabled = true
    database.persistenceDirectory = argument
}
let root = database.reference()
switch mode {
case "presence":
    let user = root.child("users").child(argument)
    root.child(".info/connected").observe(.value) { snapshot in
        guard snapshot.value as? Bool == true else { return }
        let connection = user.child("connections").childByAutoId()
        connection.onDisconnectRemoveValue()
        connection.setValue(true)
        user.child("lastOnline").onDisconnectSetValue(ServerValue.timestamp()) { error, _ in
            if error == nil { say("present \(connection.key ?? "")") }
        }
    }
case "write-offline":
    database.goOffline()
    let offline = root.child("offline")
    offline.child("note").setValue("written offline")
    offline.updateChildValues(["likes": ServerValue.increment(1), "tags/swift": true])
    offline.child("likes").setValue(ServerValue.increment(2))
    // The repo logs each write before anything later runs: once this local value is heard, all three are logged.
    offline.child("note").observeSingleEvent(of: .value) { _ in say("logged") }
case "online":
    root.child(".info/connected").observe(.value) { snapshot in
        if snapshot.value as? Bool == true { say("connected") }
    }
default:
    FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8))
    exit(64)
}
dispatchMain()
