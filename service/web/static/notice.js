// The turn notice: when the game comes to the person, the tab's title says so and a short tone
// sounds, unless muted (kept in this browser). The tone is made by WebAudio: no sound file.
const MUTE = "cardroom.mute";

export const muted = () => localStorage.getItem(MUTE) === "1";

export function setMuted(value) {
  localStorage.setItem(MUTE, value ? "1" : "0");
}

let audio = null;
function tone() {
  try {
    audio = audio || new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.25);
  } catch {
    // no audio here (a browser without WebAudio, or before any gesture): the title still says it
  }
}

/** Tell the person their turn came: ``update(myTurn)`` after each draw. */
export function turnNotice(title) {
  let was = false;
  return function update(myTurn) {
    document.title = myTurn ? `\u25cf Your turn \u2013 ${title}` : title;
    if (myTurn && !was && !muted()) tone();
    was = myTurn;
  };
}
