import { officeSocketPaths } from './office-sockets';

describe('officeSocketPaths', () => {
  it('names the pipes LibreOffice 7.4 bound for a known profile and pipe name', () => {
    // Read off /tmp after `soffice --headless -env:UserInstallation=file:///tmp/osltest/profile --accept=pipe,name=osltestpipe;urp;` as root.
    expect(officeSocketPaths('file:///tmp/osltest/profile', 'osltestpipe', 0)).toEqual([
      '/tmp/OSL_PIPE_0_osltestpipe',
      '/tmp/OSL_PIPE_0_SingleOfficeIPC_9873b573a4a3c0618631369dd3fdb310',
    ]);
  });

  it('writes each digest byte without a leading zero, as LibreOffice does', () => {
    // Observed the same way: this profile's digest has bytes under 0x10, so the name is 29 hex digits, not 32.
    expect(officeSocketPaths('file:///tmp/osltest/p23', 'osltestpipe2', 0)[1]).toBe('/tmp/OSL_PIPE_0_SingleOfficeIPC_add2893d1a6e7e193e7465d15fdba');
  });
});
