/**
 * The Python half of one warm pdf2docx process, run as `python3 -c <source>`.
 * Importing PyMuPDF, OpenCV and python-docx takes seconds, so the process
 * stays up and serves one JSON request per stdin line:
 *   → {"id", "input", "output", "firstPage"?, "lastPage"?}   (pages 1-based, inclusive)
 *   ← {"id", "ok": true} | {"id", "ok": false, "error": "..."}
 * pdf2docx logs to stdout, which is the reply channel here, so everything it
 * prints goes to stderr. Kept as a string so the build ships it without a copy step.
 */
export const PDF_TO_WORD_BRIDGE_SOURCE = String.raw`
import json, logging, os, sys
replies = sys.stdout
sys.stdout = sys.stderr
logging.disable(logging.INFO)
from pdf2docx import Converter

def reply(message):
    replies.write(json.dumps(message) + '\n')
    replies.flush()

def convert(request):
    if not os.path.isfile(request['input']) or os.path.getsize(request['input']) == 0:
        raise RuntimeError('the input file is empty')
    converter = Converter(request['input'])
    try:
        if converter.fitz_doc.needs_pass:
            raise RuntimeError('the PDF is encrypted')
        pages = len(converter.fitz_doc)
        first = max(1, int(request.get('firstPage') or 1))
        last = min(pages, int(request.get('lastPage') or pages))
        if first > last:
            raise RuntimeError('the page range %d-%d is outside the document\'s %d pages' % (first, last, pages))
        # pdf2docx skips a page it fails on unless told otherwise; a lost page must fail the task.
        converter.convert(request['output'], start=first - 1, end=last, ignore_page_error=False)
    finally:
        converter.close()

reply({'ready': True})
for line in sys.stdin:
    request = json.loads(line)
    try:
        convert(request)
        if not os.path.isfile(request['output']) or os.path.getsize(request['output']) == 0:
            raise RuntimeError('pdf2docx wrote nothing')
        reply({'id': request['id'], 'ok': True})
    except Exception as error:
        reply({'id': request['id'], 'ok': False, 'error': str(error) or type(error).__name__})
`;
