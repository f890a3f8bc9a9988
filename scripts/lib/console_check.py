"""The web console in a real browser (headless Chromium over the DevTools protocol): what scripts/console-check runs
against the nodes it starts. Every check prints a line; any miss ends the run with status 1.

usage: console_check.py --open PORT --closed PORT --secret FILE --cluster PORTS --cluster-secret FILE
                        --stop-member PID --shots DIR [--children N]"""
import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from devtools import Browser, DevToolsError

failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def rest(port, method, path, value=None, auth=None):
    """A REST call to the node on `port`; returns the decoded JSON answer."""
    query = ("&" if "?" in path else "?") + urllib.parse.urlencode({"auth": auth}) if auth else ""
    data = None if value is None else json.dumps(value).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}{query}", data=data, method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def js(text):
    """A JavaScript string literal."""
    return json.dumps(text)


def row(keys):
    """A page expression for the row of the tree item at `keys` (under the root), or null."""
    expression = "document.querySelector('#tree > li')"
    for key in keys:
        expression = (f"[...(({expression})?.querySelectorAll(':scope > ul > li') ?? [])]"
                      f".find((li) => li.item && li.item.keys.at(-1) === {js(key)})")
    return f"(({expression}) ?? null)"


class Recorder:
    """What a page's DevTools events say: requests and their origins, bytes received, and errors logged."""

    def __init__(self, page):
        self.page = page

    def requests(self):
        return [event["params"] for event in self.page.events if event["method"] == "Network.requestWillBeSent"]

    def received_bytes(self):
        """Bytes received: per request the largest of its finished total, the sum of its chunks and (for an SSE
        stream, which finishes only when it closes) the sum of its messages."""
        chunks, finished, messages = {}, {}, {}
        for event in self.page.events:
            params = event["params"]
            if event["method"] == "Network.eventSourceMessageReceived":
                messages[params["requestId"]] = messages.get(params["requestId"], 0) + len(params["data"].encode())
            elif event["method"] == "Network.dataReceived":
                chunks[params["requestId"]] = chunks.get(params["requestId"], 0) + max(
                    params.get("encodedDataLength", 0), params.get("dataLength", 0))
            elif event["method"] == "Network.loadingFinished":
                finished[params["requestId"]] = params.get("encodedDataLength", 0)
        return sum(max(chunks.get(ident, 0), finished.get(ident, 0), messages.get(ident, 0))
                   for ident in set(chunks) | set(finished) | set(messages))

    def stream_bytes(self):
        """Bytes of SSE messages received (so the total visibly counts the live streams too)."""
        return sum(len(event["params"]["data"].encode()) for event in self.page.events
                   if event["method"] == "Network.eventSourceMessageReceived")

    def refused(self):
        """The requests the node answered with a 4xx or 5xx: (status, URL) pairs."""
        return [(event["params"]["response"]["status"], event["params"]["response"]["url"])
                for event in self.page.events if event["method"] == "Network.responseReceived"
                and event["params"]["response"]["status"] >= 400]

    def unexpected_errors(self, expected=()):
        """The errors the browser logged, but the failed requests `expected` names as (path, status) pairs: the
        ones a check itself asks for."""
        return [error for error in self.errors()
                if not any(error.startswith("network:") and f"status of {status} " in error and path in error
                           for path, status in expected)]

    def errors(self):
        found = []
        for event in self.page.events:
            params = event["params"]
            if event["method"] == "Runtime.exceptionThrown":
                found.append(params["exceptionDetails"].get("exception", {}).get("description")
                             or params["exceptionDetails"].get("text"))
            elif event["method"] == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append(f"{params['entry']['source']}: {params['entry']['text']} {params['entry'].get('url', '')}")
            elif event["method"] == "Runtime.consoleAPICalled" and params["type"] == "error":
                found.append(" ".join(str(arg.get("value", arg.get("description"))) for arg in params["args"]))
        return found


def no_error(recorder, where, expected=()):
    """Checks the browser logged no error on the page but those `expected` ((path, status) of a request the check
    meant to fail)."""
    errors = recorder.unexpected_errors(expected)
    check(not errors, f"the browser logged no error on {where}" + (f": {errors[:3]}" if errors else ""))


def open_console(browser, port, width=1200, height=860):
    page = browser.page()
    for domain in ("Network", "Page", "Runtime", "Log"):
        page.call(f"{domain}.enable")
    page.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
    page.call("Page.navigate", url=f"http://127.0.0.1:{port}/.console")
    return page


def open_node(browser, port, shots, children):
    """The open node: serving, data before and after opening, a large node, edit/add/delete, rules errors."""
    rest(port, "PUT", "/shop.json", {"name": "Hearth & Co", "open": True, "stock": 12,
                                     "items": {"apple": {"price": 3}, "pear": {"price": 4}}})
    key = lambda index: f"k{index:0{len(str(children - 1))}d}"  # noqa: E731 (k000000 … k099999)
    started = time.monotonic()
    rest(port, "PUT", "/big.json?writeSizeLimit=unlimited", {key(index): index for index in range(children)},
         auth="owner")
    print(f"     (wrote {children:,} children under /big in {time.monotonic() - started:.1f} s)", flush=True)
    page = open_console(browser, port)
    recorder = Recorder(page)
    origin = f"http://127.0.0.1:{port}"
    try:
        seconds = page.wait_for(f"{row(['shop'])} && {row(['big'])}", 5, "the root's keys")
        check(True, f"data written before opening shows in {seconds:.2f} s (≤ 5 s)")
        received = recorder.received_bytes()
        check(received < 5_000_000, f"root shown with {children:,} children under /big having received "
                                    f"{received / 1e6:.2f} MB (< 5 MB)")
        document = next((event["params"]["response"] for event in page.events
                         if event["method"] == "Network.responseReceived"
                         and event["params"]["type"] == "Document"), {})
        check(document.get("mimeType") == "text/html", f"/.console answers {document.get('mimeType')}")
        headers = {name.lower(): value for name, value in document.get("headers", {}).items()}
        check("default-src 'self'" in headers.get("content-security-policy", ""), "the page has a strict CSP")

        page.evaluate(f"{row(['big'])}.item.setExpanded(true)")
        seconds = page.wait_for(f"{row(['big', key(49)])} && document.querySelector('.more button')", 5,
                                "the first page of /big")
        check(seconds <= 1 and not page.evaluate(f"!!{row(['big', key(50)])}"),
              f"/big ({children:,} children) opens showing one page of 50 in {seconds:.2f} s (≤ 1 s)")
        page.evaluate("document.querySelector('.more button').click()")
        seconds = page.wait_for(f"{row(['big', key(99)])}", 5, "the second page of /big")
        check(True, f"/big's next page shows in {seconds:.2f} s")
        received = recorder.received_bytes()
        check(received < 5_000_000, f"two pages of /big opened having received {received / 1e6:.2f} MB in all "
                                    f"({recorder.stream_bytes() / 1e3:.1f} kB of it SSE messages)")
        page.evaluate(f"{row(['big'])}.item.setExpanded(false)")

        # The query panel: the three largest values of /big, in order, kept live.
        page.evaluate("(() => { document.querySelector('details.query').open = true;"
                      " document.getElementById('path').value = '/big';"
                      " document.getElementById('query-order').value = '$value';"
                      " document.getElementById('query-anchor').value = 'limitToLast';"
                      " document.getElementById('query-limit').value = '3';"
                      " document.getElementById('query').requestSubmit(); })()")
        keys = "[...document.querySelectorAll('#query-results .key')].map((key) => key.textContent).join(',')"
        last = [key(index) for index in range(children - 3, children)]
        page.wait_for(f"{keys} === {js(','.join(last))}", 5, "the query's results")
        rest(port, "PUT", f"/big/{key(0)}.json", children * 10)
        seconds = page.wait_for(f"{keys} === {js(','.join(last[1:] + [key(0)]))}", 3, "the query's live result")
        check(True, f"a query's results (orderBy value, limitToLast 3) come in order and stay live "
                    f"({seconds:.2f} s after a write)")
        page.screenshot(f"{shots}/query.png")
        page.evaluate("(() => { document.getElementById('query-stop').click();"
                      " document.querySelector('details.query').open = false;"
                      " document.getElementById('path').value = '/'; })()")

        # The keyboard: focus /shop's row, → opens it, ↓ moves to its first child.
        page.evaluate(f"{row(['shop'])}.querySelector('.row').focus()")
        page.press("ArrowRight", 39)
        page.wait_for(f"{row(['shop', 'stock'])}", 5, "/shop opened with →")
        page.press("ArrowDown", 40)
        focused = page.evaluate("document.activeElement.parentElement.item?.keys.join('/')")
        check(focused == "shop/items", f"→ opens a node and ↓ moves to its first child ({focused})")
        rest(port, "PUT", "/shop/visitors.json", 7)
        seconds = page.wait_for(f"{row(['shop', 'visitors'])}?.textContent.includes('7')", 3,
                                "a REST write made after opening")
        check(True, f"a REST write made after opening shows in {seconds:.2f} s without a reload (≤ 3 s)")
        check(page.evaluate(f"{row(['shop', 'visitors'])}.classList.contains('added')"),
              "the new value is marked as added")
        page.evaluate(f"{row(['shop', 'items'])}.item.setExpanded(true)")
        page.wait_for(f"{row(['shop', 'items', 'apple'])}", 5, "/shop/items")
        page.screenshot(f"{shots}/data.png")

        # Eight locations open at once (more than the browser's six connections to a node): all show their
        # children, writes still go through, and a write under the first opened (now polled) one still shows.
        rest(port, "PUT", "/many.json", {f"m{index}": {"v": index} for index in range(8)})
        page.wait_for(f"{row(['many'])}", 5, "/many")
        page.evaluate(f"{row(['many'])}.item.setExpanded(true)")
        page.wait_for(f"{row(['many', 'm7'])}", 5, "/many's children")
        for index in range(8):
            page.evaluate(f"{row(['many', f'm{index}'])}.item.setExpanded(true)")
        seconds = page.wait_for(" && ".join(row(["many", f"m{index}", "v"]) for index in range(8)), 5,
                                "eight opened locations")
        rest(port, "PUT", "/many/m0/w.json", "polled")
        seconds = page.wait_for(f"{row(['many', 'm0', 'w'])}", 6, "a write under a polled location")
        check(True, f"with 9 locations open, a write under the first shows in {seconds:.2f} s (read again every 2 s)")
        page.evaluate(f"{row(['many'])}.item.setExpanded(false)")

        # Edit a value in place (click it, type, Enter: real key events), then read it back over REST.
        page.evaluate(f"{row(['shop', 'stock'])}.querySelector('.value').click()")
        page.wait_for(f"{row(['shop', 'stock'])}.querySelector('input')", 2, "the value editor")
        page.call("Input.insertText", text="40")  # replaces the selected old value, as typing does
        page.press("Enter", 13)
        page.wait_for(f"{row(['shop', 'stock'])}.querySelector('.value').textContent === '40'", 3,
                      "the edited value in the tree")
        check(rest(port, "GET", "/shop/stock.json") == 40, "a value edited in the console reads back over REST")

        # Add a child with the row's + button.
        page.evaluate(f"{row(['shop'])}.querySelector('.actions button').click()")
        page.evaluate("(() => { const form = document.querySelector('form.row.editing');"
                      " const [key, value] = form.querySelectorAll('input'); key.value = 'note';"
                      " value.value = 'fresh bread'; form.requestSubmit(); })()")
        page.wait_for(f"{row(['shop', 'note'])}", 3, "the added child")
        check(rest(port, "GET", "/shop/note.json") == "fresh bread", "a child added in the console reads back")

        # Delete a subtree: the confirmation comes first; Cancel keeps it, Delete removes it.
        page.evaluate(f"{row(['shop', 'items'])}.querySelector('.actions .danger').click()")
        page.wait_for("document.getElementById('confirm').open", 2, "the delete confirmation")
        page.screenshot(f"{shots}/confirm.png")
        page.evaluate("document.querySelector('#confirm button[value=cancel]').click()")
        time.sleep(0.3)
        check(rest(port, "GET", "/shop/items.json") is not None, "cancelling the confirmation deletes nothing")
        page.evaluate(f"{row(['shop', 'items'])}.querySelector('.actions .danger').click()")
        page.wait_for("document.getElementById('confirm').open", 2, "the delete confirmation")
        page.evaluate("document.getElementById('confirm-ok').click()")
        page.wait_for(f"!{row(['shop', 'items'])}", 3, "the deleted subtree leaving the tree")
        check(rest(port, "GET", "/shop/items.json") is None, "a subtree deleted after confirming is gone over REST")

        # Rules: a broken file shows the node's message and its line is marked; the good rules deploy again.
        page.evaluate("location.hash = '#rules'")
        page.wait_for("document.getElementById('rules-text').value.includes('rules')", 5, "the rules in force")
        original = page.evaluate("document.getElementById('rules-text').value")
        broken = '{\n  "rules": {\n    ".read": "auth != null &&",\n    ".write": true\n  }\n}'
        page.evaluate(f"(() => {{ const text = document.getElementById('rules-text'); text.value = {js(broken)};"
                      " text.dispatchEvent(new Event('input')); document.getElementById('rules-deploy').click(); })()")
        page.wait_for("document.getElementById('rules-status').textContent.includes('Line')", 5,
                      "the refused rules' message")
        message = page.evaluate("document.getElementById('rules-status').textContent")
        marked = page.evaluate("document.querySelector('#rules-gutter .bad')?.textContent.trim()")
        check(marked == "3", f"a broken rules file shows its line: {message!r}, line {marked} marked")
        page.screenshot(f"{shots}/rules.png")
        page.evaluate(f"(() => {{ const text = document.getElementById('rules-text'); text.value = {js(original)};"
                      " document.getElementById('rules-deploy').click(); })()")
        page.wait_for("document.getElementById('rules-status').textContent === 'Deployed.'", 5, "deploying rules")
        check(True, "the good rules deploy again")

        # The playground, against a draft in the editor: nothing is written, the deciding rule's line is marked.
        draft = ('{\n  "rules": {\n    "shop": {\n      ".read": "auth != null",\n'
                 '      ".write": "auth.uid === \'ada\'"\n    }\n  }\n}')
        page.evaluate(f"(() => {{ const text = document.getElementById('rules-text'); text.value = {js(draft)};"
                      " text.dispatchEvent(new Event('input')); })()")
        before = rest(port, "GET", "/shop.json")
        page.evaluate("(() => { document.getElementById('sim-operation').value = 'read';"
                      " document.getElementById('sim-path').value = '/shop';"
                      " document.getElementById('sim-as').value = 'anonymous';"
                      " document.getElementById('playground').requestSubmit(); })()")
        page.wait_for("document.getElementById('sim-result').textContent.startsWith('Denied')", 5,
                      "the playground refusing an anonymous read")
        page.evaluate("(() => { document.getElementById('sim-operation').value = 'set';"
                      " document.getElementById('sim-path').value = '/shop/name';"
                      " document.getElementById('sim-as').value = 'auth';"
                      " for (const id of ['sim-as', 'sim-operation']) document.getElementById(id)"
                      ".dispatchEvent(new Event('change'));"
                      " document.getElementById('sim-auth').value = '{\"uid\": \"ada\"}';"
                      " document.getElementById('sim-data').value = '\"Ada\\'s\"';"
                      " document.getElementById('playground').requestSubmit(); })()")
        page.wait_for("document.getElementById('sim-result').textContent.startsWith('Allowed')", 5,
                      "the playground allowing ada's set")
        result = page.evaluate("document.getElementById('sim-result').textContent")
        decided = page.evaluate("document.querySelector('#rules-gutter .decided')?.textContent.trim()")
        check(decided == "5" and "/rules/shop/.write" in result,
              f"the playground decides and names the rule's line: {result!r}, line {decided} marked")
        check(rest(port, "GET", "/shop.json") == before, "the playground changed no data")
        page.screenshot(f"{shots}/playground.png")

        # Export /shop as a file, then import it at /copy (after the confirmation); both read back over REST.
        downloads = tempfile.mkdtemp(prefix="console-check-downloads-")
        try:
            page.evaluate("location.hash = '#data'")
            page.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=downloads)
            page.evaluate("(() => { document.getElementById('path').value = '/shop';"
                          " document.getElementById('export').click(); })()")
            exported = os.path.join(downloads, "shop.json")
            deadline = time.monotonic() + 5
            while not os.path.exists(exported) and time.monotonic() < deadline:
                time.sleep(0.1)
            with open(exported) as file:
                check(json.load(file) == rest(port, "GET", "/shop.json"), "Export JSON downloads the location")
            page.evaluate("(() => { document.getElementById('path').value = '/copy'; })()")
            document = page.call("DOM.getDocument")
            node = page.call("DOM.querySelector", nodeId=document["root"]["nodeId"], selector="#import")
            page.call("DOM.setFileInputFiles", files=[exported], nodeId=node["nodeId"])
            page.wait_for("document.getElementById('confirm').open", 5, "the import confirmation")
            page.evaluate("document.getElementById('confirm-ok').click()")
            deadline = time.monotonic() + 5
            while rest(port, "GET", "/copy.json") is None and time.monotonic() < deadline:
                time.sleep(0.1)
            check(rest(port, "GET", "/copy.json") == rest(port, "GET", "/shop.json"),
                  "Import JSON writes the file at the path (after its confirmation)")
            page.evaluate("document.getElementById('path').value = '/'")
        finally:
            shutil.rmtree(downloads, ignore_errors=True)

        # The node page of a single node: health, readiness and charts; no cluster to show.
        page.evaluate("location.hash = '#node'")
        page.wait_for("document.getElementById('node-health').textContent === 'ok' && document.getElementById("
                      "'cluster-status').textContent.includes('alone')", 5, "the single node's page")
        for index in range(30):  # some traffic for the charts
            rest(port, "PUT", f"/traffic/{index}.json", index)
            time.sleep(0.1)
        page.wait_for("document.querySelectorAll('#charts polyline[points*=\" \"]').length >= 4", 5, "the charts")
        check(True, "the node page shows health, readiness and live charts")
        page.screenshot(f"{shots}/node.png")

        # A phone-sized screen.
        page.evaluate("location.hash = '#data'")
        page.call("Emulation.setDeviceMetricsOverride", width=390, height=760, deviceScaleFactor=1, mobile=True)
        page.wait_for(f"{row(['shop', 'name'])} || {row(['shop'])}", 5, "the tree on a phone")
        page.evaluate(f"{row(['shop'])}.item.setExpanded(true)")
        page.wait_for(f"{row(['shop', 'name'])}", 5, "/shop on a phone")
        page.screenshot(f"{shots}/phone.png")

        outside = [request["request"]["url"] for request in recorder.requests()
                   if not request["request"]["url"].startswith(origin + "/")
                   and not request["request"]["url"].startswith("data:")]
        check(not outside, f"nothing loaded from another origin ({len(recorder.requests())} requests"
                           + (f"; outside: {outside[:3]}" if outside else "") + ")")
        # The one error the check itself asks for: the 400 the broken rules file was meant to get.
        no_error(recorder, "the open node", expected=[("/.settings/rules.json", 400)])
    finally:
        page.close()


def namespaces(browser, port):
    """The namespace picker on the open node: it lists the namespaces written to, and picking one browses it."""
    rest(port, "PUT", "/fruit.json?ns=alpha", {"kiwi": 1}, auth="owner")
    rest(port, "PUT", "/roots.json?ns=beta", {"beet": 2}, auth="owner")
    page = open_console(browser, port)
    recorder = Recorder(page)
    try:
        offered = "[...document.querySelectorAll('#namespace-list option')].map((option) => option.value)"
        page.wait_for(f"{offered}.includes('alpha') && {offered}.includes('beta')", 5, "the listed namespaces")
        check(True, f"the namespace picker lists the node's namespaces: {page.evaluate(offered)}")
        page.evaluate("(() => { const field = document.getElementById('namespace'); field.value = 'alpha';"
                      " field.dispatchEvent(new Event('input')); })()")
        page.wait_for(f"{row(['fruit'])} && !{row(['shop'])}", 5, "namespace alpha's tree")
        check(True, "picking a listed namespace browses it")
        page.evaluate("(() => { const field = document.getElementById('namespace'); field.value = 'fresh';"
                      " field.dispatchEvent(new Event('change')); })()")
        page.wait_for(f"!{row(['fruit'])} && document.getElementById('identity').textContent === 'administrator'",
                      5, "a new namespace typed")
        page.evaluate("(() => { const field = document.getElementById('namespace'); field.value = 'beta';"
                      " field.dispatchEvent(new Event('input')); })()")
        page.wait_for(f"{row(['roots'])}", 5, "namespace beta's tree")
        check(True, "a new name may still be typed, and another listed one picked after it")
        no_error(recorder, "the namespace picker")
    finally:
        page.close()


def closed_node(browser, port, secret, shots):
    """The closed node: nothing of the data without a credential; the tree after signing in."""
    rest(port, "PUT", "/vault.json", {"codename": "bluebird", "pin": 8231}, auth=secret)
    page = open_console(browser, port)
    recorder = Recorder(page)
    try:
        page.wait_for("!document.getElementById('sign-in').hidden", 5, "the sign-in form")
        time.sleep(1)
        text = page.evaluate("document.documentElement.outerHTML")
        leaked = [word for word in ("vault", "codename", "bluebird", "8231") if word in text]
        check(not leaked, "a visitor without a credential sees no key and no value"
              + (f" (saw {leaked})" if leaked else ""))
        page.screenshot(f"{shots}/sign-in.png")
        refused = recorder.refused()
        check(not refused, f"the sign-in form came after {len(recorder.requests())} requests, none refused"
              + (f" (refused: {refused[:3]})" if refused else ""))
        no_error(recorder, "the closed node, signed out")
        page.evaluate("(() => { document.getElementById('credential').value = 'not-the-secret';"
                      " document.getElementById('sign-in-form').requestSubmit(); })()")
        page.wait_for("document.getElementById('sign-in-error').textContent.includes('not an administrator')", 5,
                      "a wrong credential refused")
        refused = recorder.refused()
        check(not refused, "a wrong credential is refused in the page, by no refused request"
              + (f" (refused: {refused[:3]})" if refused else ""))
        page.evaluate(f"(() => {{ document.getElementById('credential').value = {js(secret)};"
                      " document.getElementById('sign-in-form').requestSubmit(); })()")
        page.wait_for(f"{row(['vault'])}", 5, "the tree after signing in")
        check(page.evaluate("location.href").endswith("/.console"), "the credential never enters the page's URL")
        check(page.evaluate("document.cookie") == "", "the credential is in no cookie")
        page.evaluate("location.hash = '#rules'")
        page.wait_for("document.getElementById('rules-text').value.includes('rules')", 5, "the rules, signed in")
        page.evaluate("location.hash = '#node'")
        page.wait_for("document.getElementById('node-health').textContent === 'ok'", 5, "the node page, signed in")
        page.evaluate("location.hash = '#data'")
        page.wait_for(f"{row(['vault'])}", 5, "the tree again")
        no_error(recorder, "the closed node, signed in")
    finally:
        page.close()


def cluster(browser, ports, secret, stop_member, shots):
    """A 3-node cluster's node page: every member, a leader for every shard, a member going down."""
    page = open_console(browser, ports[0])
    recorder = Recorder(page)
    try:
        # The cluster's rules let anyone read, so the console opens as a visitor with a "Sign in" button.
        page.wait_for("!document.getElementById('sign-in-open').hidden", 5, "the sign-in button")
        page.wait_for(f"{row(['cluster-check'])} || document.querySelector('#tree > li')", 5, "the visitor's tree")
        no_error(recorder, "the cluster member, as a visitor")
        page.evaluate("document.getElementById('sign-in-open').click()")
        page.wait_for("!document.getElementById('sign-in').hidden", 5, "the sign-in form")
        page.evaluate(f"(() => {{ document.getElementById('credential').value = {js(secret)};"
                      " document.getElementById('sign-in-form').requestSubmit(); })()")
        page.wait_for("!document.getElementById('page-data').hidden", 5, "signing in")
        page.evaluate("location.hash = '#node'")
        page.wait_for("document.querySelectorAll('#members tr').length === 4", 5, "three members")
        page.wait_for("document.querySelectorAll('#shards tr').length > 1 && [...document.querySelectorAll("
                      "'#shards tr')].slice(1).every((tr) => tr.children[1].textContent !== 'none')", 10,
                      "a leader for every shard")
        shards = page.evaluate("document.querySelectorAll('#shards tr').length - 1")
        check(True, f"the cluster page shows 3 members and a leader for each of {shards} shards")
        no_error(recorder, "the cluster page")
        for index in range(40):  # some traffic for the charts
            rest(ports[index % 3], "PUT", f"/cluster-check/{index}.json", {"at": index}, auth=secret)
            time.sleep(0.1)
        time.sleep(1.5)
        page.screenshot(f"{shots}/cluster.png")
        os.kill(stop_member, signal.SIGKILL)  # a crash, not a goodbye (the shell reports "Killed")
        seconds = page.wait_for("[...document.querySelectorAll('#members tr')].some((tr) => tr.children[0]"
                                ".textContent === 'n3' && !['alive', 'self'].includes(tr.children[3].textContent))",
                                20, "the stopped member's state")
        state = page.evaluate("[...document.querySelectorAll('#members tr')].find((tr) => tr.children[0]"
                              ".textContent === 'n3').children[3].textContent")
        check(True, f"a member that goes down shows as {state} in {seconds:.1f} s")
        no_error(recorder, "the cluster page, a member down")
    finally:
        page.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--open", type=int, required=True)
    parser.add_argument("--closed", type=int, required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--cluster", required=True)
    parser.add_argument("--cluster-secret", required=True)
    parser.add_argument("--stop-member", type=int, required=True)
    parser.add_argument("--shots", required=True)
    parser.add_argument("--children", type=int, default=100_000, help="children of the large node (/big)")
    arguments = parser.parse_args()
    with open(arguments.secret) as file:
        secret = file.readline().strip()
    with open(arguments.cluster_secret) as file:
        cluster_secret = file.readline().strip()
    browser = Browser()
    try:
        for name, run in (("open node", lambda: open_node(browser, arguments.open, arguments.shots, arguments.children)),
                          ("namespaces", lambda: namespaces(browser, arguments.open)),
                          ("closed node", lambda: closed_node(browser, arguments.closed, secret, arguments.shots)),
                          ("cluster", lambda: cluster(browser, [int(p) for p in arguments.cluster.split(",")],
                                                      cluster_secret, arguments.stop_member, arguments.shots))):
            print(f"== {name}", flush=True)
            try:
                run()
            except (DevToolsError, urllib.error.URLError, OSError, TypeError, KeyError) as error:
                check(False, f"{name}: {error}")
    finally:
        browser.close()
    if failures:
        print(f"console-check: {len(failures)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("console-check: every check passed")


if __name__ == "__main__":
    main()
