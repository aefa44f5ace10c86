/**
 * The Python half of one warm LibreOffice slot, run as `python3 -c <source>`
 * (Debian's python3-uno provides `uno`). It starts soffice with the slot's own
 * profile and pipe, connects over UNO, then serves one JSON request per stdin
 * line and answers one JSON line on stdout:
 *   → {"id", "input", "output", "importFilter"?, "importOptions"?, "filter", "filterOptions"?, "filterData"?}
 *   ← {"id", "ok": true} | {"id", "ok": false, "error": "..."}
 * It prints {"ready": true} once LibreOffice answers and has converted one
 * small DOCX to PDF (a process's first conversion loads Writer's filters,
 * which would otherwise fall on a user's job). soffice writes to the
 * bridge's stderr, so a start that fails says why: under --norestore a fatal
 * error of soffice is an abort (exit 134) whose reason is printed only there.
 * Kept as a string so the TypeScript build ships it without a copy step.
 */
export const OFFICE_BRIDGE_SOURCE = String.raw`
import json, os, shutil, subprocess, sys, threading, time

soffice, profile_url, pipe_name = sys.argv[1], sys.argv[2], sys.argv[3]
# The slot's own temporary directory, emptied by the converter before this start; soffice inherits it.
temp_dir = os.environ['TMPDIR']

import uno
from com.sun.star.beans import PropertyValue

office = subprocess.Popen([
    soffice, '--headless', '--invisible', '--nologo', '--norestore', '--nodefault', '--nolockcheck',
    '--nofirststartwizard', '-env:UserInstallation=' + profile_url,
    '--accept=pipe,name=' + pipe_name + ';urp;StarOffice.ComponentContext',
], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)

def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p

def reply(message):
    sys.stdout.write(json.dumps(message) + '\n')
    sys.stdout.flush()

local = uno.getComponentContext()
resolver = local.ServiceManager.createInstanceWithContext('com.sun.star.bridge.UnoUrlResolver', local)
context = None
deadline = time.time() + 60
while context is None:
    try:
        context = resolver.resolve('uno:pipe,name=' + pipe_name + ';urp;StarOffice.ComponentContext')
    except Exception:
        if office.poll() is not None or time.time() > deadline:
            sys.stderr.write('soffice did not come up (exit %s)\n' % office.poll())
            sys.exit(3)
        time.sleep(0.1)
desktop = context.ServiceManager.createInstanceWithContext('com.sun.star.frame.Desktop', context)

def exit_with_office():
    # soffice gone (crash, OOM kill): leave too, so the converter sees it at once and restarts the slot.
    code = office.wait()
    sys.stderr.write('soffice exited (%s)\n' % code)
    sys.stderr.flush()
    os._exit(5)

threading.Thread(target=exit_with_office, daemon=True).start()

def convert(request):
    load = [prop('Hidden', True), prop('ReadOnly', True), prop('UpdateDocMode', 0), prop('MacroExecutionMode', 0)]
    if request.get('importFilter'):
        load.append(prop('FilterName', request['importFilter']))
    if request.get('importOptions'):
        load.append(prop('FilterOptions', request['importOptions']))
    if not os.path.isfile(request['input']) or os.path.getsize(request['input']) == 0:
        raise RuntimeError('the input file is empty')
    document = desktop.loadComponentFromURL(uno.systemPathToFileUrl(request['input']), '_blank', 0, tuple(load))
    if document is None:
        raise RuntimeError('the file is damaged or not in the format its name says')
    try:
        # A table of contents is stored empty (pandoc) or stale (Word): fill it before writing.
        if hasattr(document, 'getDocumentIndexes'):
            indexes = document.getDocumentIndexes()
            for i in range(indexes.getCount()):
                indexes.getByIndex(i).update()
        store = [prop('FilterName', request['filter']), prop('Overwrite', True)]
        if request.get('filterOptions'):
            store.append(prop('FilterOptions', request['filterOptions']))
        data = request.get('filterData') or {}
        if data:
            values = tuple(prop(k, v) for k, v in data.items())
            store.append(prop('FilterData', uno.Any('[]com.sun.star.beans.PropertyValue', values)))
        uno.invoke(document, 'storeToURL', (uno.systemPathToFileUrl(request['output']), tuple(store)))
    finally:
        try:
            document.close(True)
        except Exception:
            document.dispose()

def warm_up():
    # A process's first conversion loads Writer's DOCX filters and the PDF writer (~0.1-0.3 s): here, not
    # in a user's job. Calc and Impress (+44 MB per process) load with the first job that needs them.
    scratch = os.path.join(temp_dir, 'warm-up')
    source = os.path.join(scratch, 'warm-up.docx')
    try:
        os.makedirs(scratch)
        document = desktop.loadComponentFromURL('private:factory/swriter', '_blank', 0, (prop('Hidden', True),))
        try:
            document.storeToURL(uno.systemPathToFileUrl(source), (prop('FilterName', 'MS Word 2007 XML'), prop('Overwrite', True)))
        finally:
            document.close(True)
        convert({'input': source, 'output': os.path.join(scratch, 'warm-up.pdf'), 'importFilter': 'MS Word 2007 XML', 'filter': 'writer_pdf_Export'})
    except Exception as error:
        # Not a failed start: the conversion that needs the module says what is wrong.
        sys.stderr.write('warm-up skipped: %s\n' % (getattr(error, 'Message', '') or error))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

warm_up()
reply({'ready': True})

for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    try:
        convert(request)
        reply({'id': request['id'], 'ok': True})
    except Exception as error:
        message = getattr(error, 'Message', '') or str(error) or type(error).__name__
        reply({'id': request['id'], 'ok': False, 'error': message.strip().splitlines()[0] if message.strip() else type(error).__name__})
        if office.poll() is not None:
            sys.exit(4)
office.terminate()
`;
