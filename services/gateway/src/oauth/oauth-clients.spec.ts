import { redirectUriProblem } from './oauth-clients';

describe('redirectUriProblem', () => {
  it.each([['https://app.example/callback'], ['http://127.0.0.1:33418/callback'], ['http://localhost/cb'], ['http://[::1]:9000/cb'], ['com.example.app:/oauth']])(
    'accepts %s',
    (uri) => {
      expect(redirectUriProblem(uri)).toBeNull();
    },
  );

  it.each([
    ['http://app.example/callback', /https/],
    ['https://app.example/cb#frag', /fragment/],
    ['javascript:alert(1)', /https/],
    ['data:text/html,hi', /https/],
    ['not a url', /not a URL/],
  ])('refuses %s', (uri, message) => {
    expect(redirectUriProblem(uri)).toMatch(message);
  });
});
