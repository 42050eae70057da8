import { describe, expect, it } from 'vitest';
import { toRouterPath, toSameOriginPath } from './safe-path';

const origin = 'https://app.example.test';

describe('toSameOriginPath', () => {
  it('keeps same-origin paths with their query and hash', () => {
    expect(toSameOriginPath('/authoring/cases?x=1#top', origin)).toBe('/authoring/cases?x=1#top');
    expect(toSameOriginPath(`${origin}/auth/account/profile`, origin)).toBe('/auth/account/profile');
  });

  it.each(['https://evil.example.test/', '//evil.example.test/path', '/\\evil.example.test', 'javascript:alert(1)', '', null])(
    'refuses %s',
    (value) => {
      expect(toSameOriginPath(value, origin)).toBeNull();
    },
  );
});

describe('toRouterPath', () => {
  it('keeps the paths the router serves: the /auth area and the scenario library', () => {
    expect(toRouterPath('/auth/callback?redirectUrl=%2Fx')).toBe('/auth/callback?redirectUrl=%2Fx');
    expect(toRouterPath('/auth')).toBe('/auth');
    expect(toRouterPath('/authoring/cases?caseId=c1')).toBe('/authoring/cases?caseId=c1');
  });

  it('returns null outside the app', () => {
    expect(toRouterPath('/authoring/cases/grades?userId=u1')).toBeNull();
    expect(toRouterPath('/authoring/assignments')).toBeNull();
    expect(toRouterPath('/authx')).toBeNull();
  });
});
