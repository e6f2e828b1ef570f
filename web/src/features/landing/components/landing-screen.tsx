import { FeaturesSection } from './features-section';
import { GetStartedSection } from './get-started-section';
import { HeroSection } from './hero-section';
import { HowItWorksSection } from './how-it-works-section';
import { LandingFooter } from './landing-footer';
import { LandingHeader } from './landing-header';

export function LandingScreen() {
  return (
    <>
      <LandingHeader />
      <main>
        <HeroSection />
        <FeaturesSection />
        <HowItWorksSection />
        <GetStartedSection />
      </main>
      <LandingFooter />
    </>
  );
}
