import type { Page } from "playwright-core";
import type { BrowserSide } from "./identity-rules";
import type { PageNavigator, PagePeerConnectionClass } from "./page-globals";

interface ProbeArgs {
  stunUrl: string;
  gatherMs: number;
}

/**
 * Runs in the page: what any site can read of the browser's clock, languages, automation flag and
 * platform, and the addresses WebRTC would give away (with the STUN server, the public one as well).
 * Written as a plain function so Playwright sends its source to the page.
 */
async function probeInPage({ stunUrl, gatherMs }: ProbeArgs): Promise<BrowserSide> {
  const addresses = new Set<string>();
  const page = globalThis as unknown as { navigator: PageNavigator; RTCPeerConnection?: PagePeerConnectionClass };
  const Connection = page.RTCPeerConnection;
  if (Connection) {
    const peer = new Connection(stunUrl ? { iceServers: [{ urls: stunUrl }] } : {});
    peer.createDataChannel("identity");
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, gatherMs);
      peer.onicecandidate = (event) => {
        if (!event.candidate) {
          clearTimeout(timer);
          resolve();
          return;
        }
        // candidate:<foundation> <component> <protocol> <priority> <address> <port> typ <type> ...
        const address = event.candidate.candidate.split(" ")[4];
        if (address && !address.endsWith(".local")) addresses.add(address);
      };
      peer
        .createOffer()
        .then((offer) => peer.setLocalDescription(offer))
        .catch(() => {
          clearTimeout(timer);
          resolve();
        });
    });
    peer.close();
  }
  const { navigator } = page;
  return {
    browserTimezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    languages: [...navigator.languages],
    webdriver: navigator.webdriver === true,
    userAgent: navigator.userAgent,
    platform: navigator.userAgentData?.platform || navigator.platform,
    webrtc: [...addresses],
  };
}

/** What the page says of the browser; WebRTC gathering ends when the browser says so or after `gatherMs`. */
export function probeBrowser(page: Page, stunUrl: string, gatherMs: number): Promise<BrowserSide> {
  return page.evaluate(probeInPage, { stunUrl, gatherMs });
}
