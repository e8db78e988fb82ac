// templateNames.js — the templates of "Your learner" by name and title, apart from their text
// (learnerTemplates.js, loaded only when the editor opens: it holds the learners' source).
export const TEMPLATE_TITLES = Object.freeze({ reinforce: 'REINFORCE', ppo: 'PPO', dqn: 'DQN' });
/** The algos a visitor's learner can start from (their policy files are the template's). */
export const TEMPLATES = Object.freeze(Object.keys(TEMPLATE_TITLES));
