// learn.js — the page's door to valley-farm/learn: the Lab's Worker, the Lab and the game's
// agent panel import the learners from here, so that what the page adds around the package
// (nothing today) has one place.
export * from 'valley-farm/learn';
