import { describe, expect, it } from 'vitest';
import { answerLabel, answersLine, answersOpen, goingFirst, goingLine, isAsked, isFull, myAnswerLine, parseSpots, spotsLine } from './rsvps';

describe("who's coming, as the screens say it", () => {
  it('opens answers once a date is locked, not while planning', () => {
    expect(answersOpen({ status: 'planning' })).toBe(false);
    expect(answersOpen({ status: 'time_range_locked' })).toBe(true);
    expect(answersOpen({ status: 'date_locked' })).toBe(true);
    expect(answersOpen({ status: 'completed' })).toBe(true);
    // A cancelled plan (docs/decisions/0100) is asked nothing and counts no one.
    expect(answersOpen({ status: 'cancelled' } as unknown as { status: 'planning' })).toBe(false);
  });

  it('counts going and maybe, and the headcount only when friends come', () => {
    expect(answersLine({ going: 5, maybe: 2, headcount: 5 })).toBe('5 going, 2 maybe');
    expect(answersLine({ going: 5, maybe: 2, headcount: 7 })).toBe('5 going, 2 maybe · 7 with friends');
    expect(answersLine({ going: 1, maybe: 0, headcount: 3 })).toBe('1 going · 3 with friends');
    expect(answersLine({ going: 0, maybe: 0, headcount: 0 })).toBe('0 going');
    expect(goingLine({ going: 5 })).toBe('5 going');
  });

  it("says the caller's answer and everyone's", () => {
    expect(myAnswerLine({ answer: 'going', plusOnes: 0, position: null })).toBe("You're going");
    expect(myAnswerLine({ answer: 'going', plusOnes: 1, position: null })).toBe("You're going with 1 friend");
    expect(myAnswerLine({ answer: 'going', plusOnes: 2, position: null })).toBe("You're going with 2 friends");
    expect(myAnswerLine({ answer: 'maybe', plusOnes: 0, position: null })).toBe('You said maybe');
    expect(myAnswerLine({ answer: 'no', plusOnes: 0, position: null })).toBe("You can't go");
    expect(myAnswerLine({ answer: 'waitlist', plusOnes: 1, position: 3 })).toBe("You're on the waitlist: #3");
    expect(myAnswerLine({ answer: null, plusOnes: 0, position: null })).toBeNull();
    expect(answerLabel({ answer: 'going', plusOnes: 2, position: null })).toBe('Going +2');
    expect(answerLabel({ answer: 'no', plusOnes: 0, position: null })).toBe("Can't go");
    expect(answerLabel({ answer: 'waitlist', plusOnes: 0, position: 1 })).toBe('Waitlist #1');
    expect(answerLabel({ answer: null, plusOnes: 0, position: null })).toBeNull();
  });

  it('asks who has not answered, and everyone again after a new date', () => {
    expect(isAsked({ mine: null, askAgain: false })).toBe(true);
    expect(isAsked({ mine: { answer: null, plusOnes: 0, position: null, setByHost: false }, askAgain: true })).toBe(true);
    expect(isAsked({ mine: { answer: 'maybe', plusOnes: 0, position: null, setByHost: false }, askAgain: false })).toBe(false);
  });

  it('is full when the headcount reaches the spots; no spots, never', () => {
    expect(isFull({ capacity: 4, headcount: 4 })).toBe(true);
    expect(isFull({ capacity: 4, headcount: 3 })).toBe(false);
    expect(isFull({ capacity: null, headcount: 90 })).toBe(false);
  });

  it('puts the participants in the answers order, who joined since after them', () => {
    const participants = ['a', 'b', 'c', 'd'].map((id) => ({ id }));
    const people = [{ participantId: 'c' }, { participantId: 'a' }, { participantId: 'b' }];
    expect(goingFirst(participants, people).map((p) => p.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(goingFirst(participants, undefined).map((p) => p.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it("says the host's spots and friends, and reads spots as typed", () => {
    expect(spotsLine({ capacity: 12, headcount: 5, maxPlusOnes: 2 })).toBe('5 of 12 spots taken · up to 2 friends each');
    expect(spotsLine({ capacity: null, headcount: 5, maxPlusOnes: 1 })).toBe('No limit on spots · up to 1 friend each');
    expect(spotsLine({ capacity: 3, headcount: 3, maxPlusOnes: 0 })).toBe('3 of 3 spots taken · no friends');
    expect(parseSpots(' 12 ', 200)).toBe(12);
    for (const bad of ['0', '201', '1.5', '-3', '', 'ten', '1e2']) expect(parseSpots(bad, 200)).toBeNull();
  });
});
